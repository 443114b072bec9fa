import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { basicAuthorization } from '../lib/basic-auth.js';
import type { ConnectionConfig } from '../lib/connections.js';
import { WEBHOOK_KINDS, type WebhookKind } from '../wms/webhooks.js';
import { configFrom, parse, UsageError, withUsage } from './args.js';
import { pickConnection } from './connection-arg.js';
import { retryEvents } from './events.js';
import { withServiceDeps } from './service-deps.js';
import type { Command, CommandContext } from './types.js';

const help = `Usage: wms-sync replay FILE... --to URL [--connection NAME] [--kind KIND]
       wms-sync replay --event ID [--event ID]...

Sends webhook payloads to a receiver as the WMS does: each FILE holds one JSON payload (see
fixtures/webhooks/), POSTed byte for byte to URL/webhooks/NAME/KIND with the connection's Basic
credentials (from CONNECTIONS_FILE or the WEBHOOK_* variables). KIND is --kind, or the kind the
file name starts with: ${WEBHOOK_KINDS.join(', ')}.
A payload already received is acknowledged again and not processed again (it is a duplicate).

With --event, runs the processing of events already stored again instead (as \`events retry\`).

Options:
  --to URL           the receiver's base URL, e.g. http://127.0.0.1:8080
  --connection NAME  whose credentials to send (default: the only connection configured)
  --kind KIND        the webhook kind of every FILE
  --event ID         id of a stored event to process again (repeatable)

Exit code: 0 when every webhook was answered 2xx, 1 otherwise.`;

export function kindOfFile(file: string): WebhookKind | undefined {
  const name = basename(file);
  // Longest first, so "reception-close" never shadows a longer kind that starts the same way.
  return [...WEBHOOK_KINDS].sort((a, b) => b.length - a.length).find((k) => name.startsWith(k));
}

async function sendFiles(
  ctx: CommandContext,
  files: string[],
  to: string,
  connection: ConnectionConfig,
  kind: WebhookKind | undefined,
): Promise<number> {
  const { username, password } = connection.webhookCredentials[0]!;
  const authorization = basicAuthorization(username, password);
  const plan = files.map((file) => {
    const k = kind ?? kindOfFile(file);
    if (!k) throw new UsageError(`cannot tell the webhook kind of ${file}: name it after the kind or pass --kind`);
    return { file, kind: k };
  });
  let code = 0;
  for (const { file, kind: k } of plan) {
    const body = await readFile(file);
    const url = `${to.replace(/\/+$/, '')}/webhooks/${encodeURIComponent(connection.name)}/${k}`;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body,
      });
      const text = (await res.text()).replace(/\s+/g, ' ').slice(0, 300);
      if (!res.ok) code = 1;
      ctx.stdout.write(`${file} → ${k}: ${res.status} ${text}\n`);
    } catch (err) {
      code = 1;
      ctx.stderr.write(
        `${file} → ${k}: ${url} unreachable (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message})\n`,
      );
    }
  }
  return code;
}

export const replayCommand: Command = {
  name: 'replay',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values, positionals } = parse(
        args,
        {
          to: { type: 'string' },
          connection: { type: 'string' },
          kind: { type: 'string' },
          event: { type: 'string', multiple: true },
        },
        true,
      );
      if (values.kind !== undefined && !(WEBHOOK_KINDS as readonly string[]).includes(values.kind))
        throw new UsageError(`--kind must be one of ${WEBHOOK_KINDS.join(', ')}`);
      if (values.event) {
        if (positionals.length > 0 || values.to)
          throw new UsageError('--event replays stored events: it takes no FILE and no --to');
        const ids = values.event.map((raw) => {
          if (!/^[1-9]\d*$/.test(raw)) throw new UsageError(`"${raw}" is not an event id`);
          return Number(raw);
        });
        const config = configFrom(ctx);
        if (!config) return 1;
        return withServiceDeps(config, (deps) => retryEvents(deps, ids, ctx));
      }
      if (positionals.length === 0) throw new UsageError('give at least one FILE, or --event ID');
      if (!values.to || !/^https?:\/\//.test(values.to)) throw new UsageError('--to URL is required (http or https)');
      const config = configFrom(ctx);
      if (!config) return 1;
      const connection = pickConnection(config, values.connection);
      return sendFiles(ctx, positionals, values.to, connection, values.kind as WebhookKind | undefined);
    }),
};
