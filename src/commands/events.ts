import type { ServiceDeps } from '../deps.js';
import { eventDetail } from '../inbound/event-views.js';
import { retryEvent } from '../inbound/retry-event.js';
import type { Config } from '../lib/config.js';
import { INBOUND_STATUSES, type InboundEvent, type InboundStatus } from '../store/index.js';
import { configFrom, parse, UsageError, withUsage } from './args.js';
import { EDIT_HELP, editEvent } from './events-edit.js';
import { EXPORT_HELP, exportCommand } from './events-export.js';
import { printDetail } from './events-show.js';
import { eventId, withServiceDeps } from './service-deps.js';
import type { Command, CommandContext } from './types.js';

const help = `Usage: wms-sync events list [--status S] [--kind K] [--connection NAME] [--code CODE] [--limit N] [--before ID] [--json]
       wms-sync events show ID [--json]
       wms-sync events retry ID...
${EDIT_HELP.usage}
${EXPORT_HELP.usage}

Inbound webhook events as stored by the receiver, newest first.

  list    one line per event: id, connection, kind, status, attempts, duplicates, received at,
          business key, last error or quarantine reason. --status is one of ${INBOUND_STATUSES.join(', ')}.
  show    everything about one event: metadata, the raw body exactly as received, the operator's
          correction and who changed what when, the processing attempts, the feed entries.
  retry   runs the processing of these events again (failed, quarantined, processed or stuck ones): back to
          "received" with a new job, which the running service's worker picks up. A rejected_by_erp event
          is asked about again: processed only if the ERP now accepts it.
          Processing is idempotent: a feed entry already in the ERP feed is not appended twice.
          Rejected events cannot be retried; the WMS must send a corrected one.
${EDIT_HELP.text}
${EXPORT_HELP.text}

Options:
  --status S         only events with this status
  --kind K           only events of this webhook kind (reception-close, ...)
  --connection NAME  only events of this connection
  --code CODE        only events with this closingDocumentCode (or a regularization's product)
  --limit N          at most N events (default 50)
  --before ID        events with an id below ID (the next page)
  --json             JSON instead of text (list: one object per line)`;

const RETRY_REFUSALS = {
  not_found: 'no such event',
  rejected: 'rejected events cannot be retried; the WMS must send a corrected one',
  pruned: 'its raw body was pruned (INBOUND_RETENTION_DAYS): there is nothing left to process',
  no_erp:
    'the ERP refused it and its connection no longer has an ERP webhook to ask again: override the refusal in the console or the admin API',
} as const;

/** Re-runs processing of stored events; prints one line each. Returns the exit code. */
export async function retryEvents(deps: ServiceDeps, ids: number[], ctx: CommandContext): Promise<number> {
  let code = 0;
  for (const id of ids) {
    const result = await retryEvent(deps, id);
    if (result.ok && result.erp && result.erp.decision !== 'accepted') {
      code = 1;
      ctx.stderr.write(
        `event ${id}: the ERP was asked again and ${result.erp.decision === 'rejected' ? `refuses it: ${result.erp.message}` : `did not decide (${result.erp.detail})`}; it stays refused\n`,
      );
    } else if (result.ok)
      ctx.stdout.write(
        `event ${id}: ${result.erp ? 'the ERP accepts it now; ' : ''}queued for processing again (${result.event.kind} ${result.event.dedupeKey})\n`,
      );
    else {
      code = 1;
      ctx.stderr.write(`event ${id}: ${RETRY_REFUSALS[result.reason]}\n`);
    }
  }
  return code;
}

function row(e: InboundEvent): string {
  const note = e.status === 'quarantined' ? e.quarantineReason : e.error;
  const error = note ? note.replace(/\s+/g, ' ').slice(0, 60) : '';
  return [
    String(e.id).padStart(6),
    e.connection.padEnd(12),
    e.kind.padEnd(22),
    e.status.padEnd(9),
    String(e.attempts).padStart(3),
    String(e.duplicates).padStart(4),
    e.receivedAt.toISOString(),
    e.dedupeKey,
    error,
  ].join('  ');
}

async function list(args: string[], ctx: CommandContext, config: Config): Promise<number> {
  const { values } = parse(args, {
    status: { type: 'string' },
    kind: { type: 'string' },
    connection: { type: 'string' },
    code: { type: 'string' },
    limit: { type: 'string' },
    before: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.status && !(INBOUND_STATUSES as readonly string[]).includes(values.status))
    throw new UsageError(`--status must be one of ${INBOUND_STATUSES.join(', ')}`);
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new UsageError('--limit must be an integer from 1 to 10000');
  const events = await withServiceDeps(config, (deps) =>
    deps.store.inbox.list({
      limit,
      ...(values.status ? { status: values.status as InboundStatus } : {}),
      ...(values.kind ? { kind: values.kind } : {}),
      ...(values.connection ? { connection: values.connection } : {}),
      ...(values.code ? { businessCode: values.code } : {}),
      ...(values.before ? { beforeId: eventId(values.before) } : {}),
    }),
  );
  if (values.json) {
    for (const e of events) ctx.stdout.write(`${JSON.stringify(e)}\n`);
    return 0;
  }
  ctx.stdout.write(
    `${['    id', 'connection'.padEnd(12), 'kind'.padEnd(22), 'status'.padEnd(9), 'att', 'dups', 'received at'.padEnd(24), 'key', 'error'].join('  ')}\n`,
  );
  for (const e of events) ctx.stdout.write(`${row(e)}\n`);
  return 0;
}

async function show(args: string[], ctx: CommandContext, config: Config): Promise<number> {
  const { positionals, values } = parse(args, { json: { type: 'boolean' } }, true);
  if (positionals.length !== 1) throw new UsageError('events show takes one event id');
  const id = eventId(positionals[0]!);
  const detail = await withServiceDeps(config, (deps) => eventDetail(deps.store, id));
  if (!detail) {
    ctx.stderr.write(`event ${id}: no such event\n`);
    return 1;
  }
  if (values.json) ctx.stdout.write(`${JSON.stringify(detail, null, 2)}\n`);
  else printDetail(detail, ctx.stdout);
  return 0;
}

export const eventsCommand: Command = {
  name: 'events',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const [sub, ...rest] = args;
      if (sub !== 'list' && sub !== 'show' && sub !== 'retry' && sub !== 'edit' && sub !== 'export')
        throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'missing subcommand');
      if (sub === 'retry') {
        const { positionals } = parse(rest, {}, true);
        if (positionals.length === 0) throw new UsageError('events retry takes one or more event ids');
        const ids = positionals.map(eventId);
        const config = configFrom(ctx);
        if (!config) return 1;
        return withServiceDeps(config, (deps) => retryEvents(deps, ids, ctx));
      }
      const config = configFrom(ctx);
      if (!config) return 1;
      if (sub === 'edit') return editEvent(rest, ctx, config);
      if (sub === 'export') return exportCommand(rest, ctx, config);
      return sub === 'list' ? list(rest, ctx, config) : show(rest, ctx, config);
    }),
};
