import { runService } from '../main.js';
import { configFrom, parse, withUsage } from './args.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync worker

Runs only the job worker: webhook processing, pushes to the WMS, scheduled reconciliation. Use it
beside \`wms-sync serve\` processes on Postgres (DATABASE_URL) to add processing capacity.

Configuration comes from environment variables: see .env.example.`;

export const workerCommand: Command = {
  name: 'worker',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      parse(args, {});
      const config = configFrom(ctx);
      if (!config) return 1;
      const service = await runService(config, { http: false, worker: true, guardProcess: true });
      await ctx.stopSignal;
      await service.close();
      return 0;
    }),
};
