import { openQueue } from '../queue/index.js';
import { openStore } from '../store/index.js';
import { configFrom, parse, withUsage } from './args.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync migrate

Applies pending database migrations (drizzle/sqlite or drizzle/pg) and, on Postgres, installs or
upgrades pg-boss's schema. Safe to run while other processes are starting: migrations take a lock.
\`serve\`, \`worker\` and \`start\` also migrate at boot.`;

export const migrateCommand: Command = {
  name: 'migrate',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      parse(args, {});
      const config = configFrom(ctx);
      if (!config) return 1;
      const store = openStore(config.database);
      try {
        await store.migrate();
        if (store.dialect === 'postgres') {
          const queue = openQueue(store);
          await queue.start();
          await queue.stop({ graceMs: 0 });
        }
        const where =
          config.database.kind === 'sqlite' ? config.database.file : `postgres (schema ${config.database.schema})`;
        ctx.stdout.write(`wms-sync: database migrated: ${where}\n`);
        return 0;
      } finally {
        await store.close();
      }
    }),
};
