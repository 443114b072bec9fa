import type { Command } from './types.js';

/** A command whose issue has not landed yet: it says so and exits 2. */
export function notYetAvailable(name: string, summary: string, help: string): Command {
  return {
    name,
    summary,
    help,
    run: async (_args, ctx) => {
      ctx.stderr.write(`wms-sync ${name}: not yet available in this version\n`);
      return 2;
    },
  };
}
