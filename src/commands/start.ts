import { createLogger } from '../lib/logger.js';
import { runService } from '../main.js';
import { configFrom, parse, withUsage } from './args.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync start [--port N]

The embedded default (what \`npm start\` runs): SQLite under ./data, the embedded job queue, the
HTTP API and the worker in one process. It migrates the database, starts, and prints where to look.
Logs are quiet (warnings and errors) unless LOG_LEVEL is set.

Options:
  --port N   listen on this port (default PORT or 8080)`;

export const startCommand: Command = {
  name: 'start',
  summary: 'run everything embedded on this machine (npm start)',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values } = parse(args, { port: { type: 'string' } });
      const config = configFrom(ctx, { PORT: values.port });
      if (!config) return 1;
      const logger = createLogger({ level: ctx.env.LOG_LEVEL ? config.logLevel : 'warn' });
      const service = await runService(config, { http: true, worker: true, logger });
      const url = service.http!.url;
      const storage = config.database.kind === 'sqlite' ? `SQLite ${config.database.file}` : 'Postgres';
      ctx.stdout.write(
        [
          '',
          `wms-sync is running (${storage}, ${service.deps.queue.kind === 'sqlite' ? 'embedded queue' : 'pg-boss'})`,
          '',
          `  Service     ${url}`,
          `  Health      ${url}/healthz`,
          `  Readiness   ${url}/readyz`,
          `  Metrics     ${url}/metrics`,
          '',
          'Press Ctrl+C to stop.',
          '',
        ].join('\n'),
      );
      await ctx.stopSignal;
      await service.close();
      return 0;
    }),
};
