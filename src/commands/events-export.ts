import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { exportEvents } from '../inbound/capture.js';
import type { Config } from '../lib/config.js';
import { INBOUND_STATUSES, type InboundStatus, type InboxFilter } from '../store/index.js';
import { WEBHOOK_KINDS } from '../wms/webhooks.js';
import { parse, UsageError } from './args.js';
import { withServiceDeps } from './service-deps.js';
import type { CommandContext } from './types.js';

export const EXPORT_HELP = {
  usage:
    '       wms-sync events export [--connection NAME] [--kind K] [--status S] [--since TIME] [--until TIME] [--out FILE]',
  text: `  export  the matching events as the WMS sent them, oldest first, as JSON Lines: connection, kind,
          receivedAt, body (the raw body, never a correction) and id. To FILE, or standard output.
          Events whose body retention emptied are skipped and counted. No credential is ever
          stored, so none is written. \`wms-sync replay FILE.jsonl --to URL\` sends them again.
          --since and --until are ISO 8601 times (receivedAt from --since, before --until).`,
};

function time(value: string, option: string): Date {
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime()))
    throw new UsageError(`${option} must be an ISO 8601 date or time, e.g. 2026-11-27 or 2026-11-27T08:00:00Z`);
  return at;
}

async function writeTo(stream: WriteStream | NodeJS.WritableStream, line: string): Promise<void> {
  if (!stream.write(line)) await once(stream, 'drain');
}

export async function exportCommand(args: string[], ctx: CommandContext, config: Config): Promise<number> {
  const { values } = parse(args, {
    connection: { type: 'string' },
    kind: { type: 'string' },
    status: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    out: { type: 'string' },
  });
  if (values.status && !(INBOUND_STATUSES as readonly string[]).includes(values.status))
    throw new UsageError(`--status must be one of ${INBOUND_STATUSES.join(', ')}`);
  if (values.kind && !(WEBHOOK_KINDS as readonly string[]).includes(values.kind))
    throw new UsageError(`--kind must be one of ${WEBHOOK_KINDS.join(', ')}`);
  const filter: InboxFilter = {
    ...(values.connection ? { connection: values.connection } : {}),
    ...(values.kind ? { kind: values.kind } : {}),
    ...(values.status ? { status: values.status as InboundStatus } : {}),
    ...(values.since ? { receivedFrom: time(values.since, '--since') } : {}),
    ...(values.until ? { receivedTo: time(values.until, '--until') } : {}),
  };
  const file = values.out ? createWriteStream(values.out, { flags: 'wx' }) : undefined;
  if (file) await once(file, 'open');
  const out = file ?? ctx.stdout;
  try {
    const { written, pruned } = await withServiceDeps(config, (deps) =>
      exportEvents(deps.store, filter, (line) => writeTo(out, line)),
    );
    ctx.stderr.write(
      `exported ${written} event${written === 1 ? '' : 's'}${values.out ? ` to ${values.out}` : ''}${pruned ? `; ${pruned} skipped: their body was pruned` : ''}\n`,
    );
    return 0;
  } finally {
    if (file) {
      file.end();
      await once(file, 'close');
    }
  }
}
