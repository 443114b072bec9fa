import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { basicAuthorization } from '../lib/basic-auth.js';
import type { ConnectionConfig } from '../lib/connections.js';
import { WEBHOOK_KINDS, type WebhookKind } from '../wms/webhooks.js';
import { configFrom, parse, UsageError, withUsage } from './args.js';
import { pickConnection } from './connection-arg.js';
import { retryEvents } from './events.js';
import { type Pace, replayCapture } from './replay-capture.js';
import { withServiceDeps } from './service-deps.js';
import type { Command, CommandContext } from './types.js';

const help = `Usage: wms-sync replay FILE... --to URL [--connection NAME] [--kind KIND]
       wms-sync replay CAPTURE.jsonl --to URL [--rate N | --pace recorded [--speed F]] [--connection NAME]
       wms-sync replay --event ID [--event ID]...

Sends webhook payloads to a receiver as the WMS does: each FILE holds one JSON payload (see
fixtures/webhooks/), POSTed byte for byte to URL/webhooks/NAME/KIND with the connection's Basic
credentials (from CONNECTIONS_FILE or the WEBHOOK_* variables). KIND is --kind, or the kind the
file name starts with: ${WEBHOOK_KINDS.join(', ')}.
A payload already received is acknowledged again and not processed again (it is a duplicate).

A capture (a .jsonl file \`wms-sync events export\` wrote) is sent line by line in its order, each
event to its own connection (or all to --connection), at --rate N per second (default 50) or with
the gaps the WMS left between them (--pace recorded, --speed F times faster). A bad line refuses
the whole file before anything is sent. Progress is printed once a second.

With --event, runs the processing of events already stored again instead (as \`events retry\`).

Options:
  --to URL           the receiver's base URL, e.g. http://127.0.0.1:8080
  --connection NAME  whose credentials to send (default: the only connection configured)
  --kind KIND        the webhook kind of every FILE
  --event ID         id of a stored event to process again (repeatable)
  --rate N           events per second for a capture (default 50)
  --pace recorded    keep a capture's recorded gaps instead of a rate
  --speed F          with --pace recorded, send F times faster (default 1)

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

function positive(value: string, option: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${option} must be a positive number`);
  return n;
}

function paceOf(values: { rate?: string; pace?: string; speed?: string }): Pace {
  if (values.pace !== undefined && values.pace !== 'recorded') throw new UsageError('--pace takes one value: recorded');
  if (values.pace && values.rate) throw new UsageError('choose --rate or --pace recorded, not both');
  if (values.speed && !values.pace) throw new UsageError('--speed applies with --pace recorded');
  if (values.pace) return { recorded: true, speed: values.speed ? positive(values.speed, '--speed') : 1 };
  return { rate: values.rate ? positive(values.rate, '--rate') : 50 };
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
          rate: { type: 'string' },
          pace: { type: 'string' },
          speed: { type: 'string' },
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
      if (positionals.some((f) => f.endsWith('.jsonl'))) {
        if (positionals.length > 1) throw new UsageError('give one capture (.jsonl) at a time');
        if (values.kind) throw new UsageError('a capture names the kind of each event: --kind does not apply');
        return replayCapture(ctx, config, {
          file: positionals[0]!,
          to: values.to,
          ...(values.connection ? { as: values.connection } : {}),
          pace: paceOf(values),
        });
      }
      if (values.rate || values.pace || values.speed)
        throw new UsageError('--rate, --pace and --speed apply to a capture (.jsonl)');
      const connection = pickConnection(config, values.connection);
      return sendFiles(ctx, positionals, values.to, connection, values.kind as WebhookKind | undefined);
    }),
};
