import { randomBytes } from 'node:crypto';
import { parse, UsageError, withUsage } from './args.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync connections secret

Prints a new Standard Webhooks secret (whsec_ followed by 32 random bytes in base64) for
ERP_WEBHOOK_SECRET (or erpWebhookSecret in CONNECTIONS_FILE). Give the same value to the ERP's
receiver, which verifies each delivery's signature with it (docs/erp-delivery.md). To rotate, move
the old one to ERP_WEBHOOK_PREVIOUS_SECRET: both sign until it is removed.`;

/** 32 bytes, as Svix generates them: above the 24 the Standard Webhooks spec asks for. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export const connectionsCommand: Command = {
  name: 'connections',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { positionals } = parse(args, {}, true);
      if (positionals.length !== 1 || positionals[0] !== 'secret')
        throw new UsageError(`expected "secret", got "${positionals.join(' ')}"`);
      ctx.stdout.write(`${newWebhookSecret()}\n`);
      return 0;
    }),
};
