import { runService } from '../main.js';
import { configFrom, parse, withUsage } from './args.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync serve [--port N] [--host ADDR]

Runs the HTTP API (webhook receiver, ERP API, /healthz, /readyz, /metrics) and the job worker in
one process. Storage is SQLite under DATA_DIR unless DATABASE_URL names a Postgres database, in
which case jobs go through pg-boss and any number of serve/worker processes share the work.

Options:
  --port N      listen on this port (default PORT or 8080)
  --host ADDR   bind this address (default HOST or 127.0.0.1)

Configuration comes from environment variables: see .env.example.`;

export const serveCommand: Command = {
  name: 'serve',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values } = parse(args, { port: { type: 'string' }, host: { type: 'string' } });
      const config = configFrom(ctx, { PORT: values.port, HOST: values.host });
      if (!config) return 1;
      const service = await runService(config, { http: true, worker: true, guardProcess: true });
      await ctx.stopSignal;
      await service.close();
      return 0;
    }),
};
