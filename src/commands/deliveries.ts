import {
  type DeliveryDetail,
  type DeliverySummary,
  deliveryDetail,
  listDeliveries,
  resendDead,
  resendOne,
} from '../erp/delivery/views.js';
import type { Config } from '../lib/config.js';
import { DELIVERY_STATUSES, type DeliveryFilter, FEED_ENTRY_TYPES } from '../store/index.js';
import { configFrom, parse, UsageError, withUsage } from './args.js';
import { withServiceDeps } from './service-deps.js';
import type { Command, CommandContext } from './types.js';

const help = `Usage: wms-sync deliveries list [--status S] [--connection NAME] [--type T] [--key K] [--limit N] [--before ID] [--json]
       wms-sync deliveries show ID [--json]
       wms-sync deliveries resend ID...
       wms-sync deliveries resend --dead [--connection NAME] [--type T] [--key K] [--dry-run]

Deliveries of the ERP feed to a connection's ERP webhook (ERP_WEBHOOK_URL), newest first.

  list    one line per delivery: id, connection, type, status, attempts, last HTTP status, order
          key, webhook-id, last error. --status is one of ${DELIVERY_STATUSES.join(', ')}.
  show    one delivery: its state, the JSON body the ERP receives, and every attempt (time,
          status, latency, the first KB of the answer).
  resend  sends these deliveries again (dead or delivered ones) on a fresh retry schedule, with
          the same webhook-id; with --dead, every dead delivery matching the filters. The running
          service's worker sends them within ERP_WEBHOOK_POLL_MS.

Options:
  --status S         only deliveries with this status
  --connection NAME  only deliveries of this connection
  --type T           only this feed type (${FEED_ENTRY_TYPES.join(', ')})
  --key K            only this order key (doc:<document>, lot:<product>|<lot>)
  --limit N          at most N deliveries (default 50)
  --before ID        deliveries with an id below ID (the next page)
  --dead             resend: every dead delivery matching the filters
  --dry-run          resend --dead: only count them
  --json             JSON instead of text (list: one object per line)`;

function deliveryId(raw: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new UsageError(`"${raw}" is not a delivery id`);
  return Number(raw);
}

function filterOf(values: {
  connection?: string | undefined;
  type?: string | undefined;
  key?: string | undefined;
}): Omit<DeliveryFilter, 'status'> {
  if (values.type && !(FEED_ENTRY_TYPES as readonly string[]).includes(values.type))
    throw new UsageError(`--type must be one of ${FEED_ENTRY_TYPES.join(', ')}`);
  return {
    ...(values.connection ? { connection: values.connection } : {}),
    ...(values.type ? { type: values.type as DeliveryFilter['type'] } : {}),
    ...(values.key ? { orderKey: values.key } : {}),
  };
}

function row(d: DeliverySummary): string {
  const error = d.lastError ? d.lastError.replace(/\s+/g, ' ').slice(0, 50) : '';
  return [
    String(d.id).padStart(6),
    d.connection.padEnd(12),
    d.type.padEnd(22),
    d.status.padEnd(9),
    String(d.attempts).padStart(3),
    String(d.lastStatus ?? '-').padStart(4),
    d.orderKey.padEnd(24),
    d.webhookId,
    error,
  ].join('  ');
}

function printDetail(detail: DeliveryDetail, out: NodeJS.WritableStream): void {
  const d = detail.delivery;
  out.write(`delivery ${d.id}  ${d.status}  ${d.connection}  ${d.type}\n`);
  out.write(
    `  webhook-id   ${d.webhookId}\n  feed entry   ${d.feedEntryId}\n  order key    ${d.orderKey}\n  attempts     ${d.attempts}\n`,
  );
  if (d.nextAttemptAt) out.write(`  next attempt ${d.nextAttemptAt}\n`);
  if (d.deliveredAt) out.write(`  delivered at ${d.deliveredAt}\n`);
  if (d.lastError) out.write(`  last error   ${d.lastError}\n`);
  out.write(
    `\nbody:\n${detail.entry ? JSON.stringify(detail.entry, null, 2) : '(pruned by retention)'}\n\nattempts:\n`,
  );
  for (const a of detail.attempts) {
    out.write(
      `  ${a.at}  ${a.outcome.padEnd(9)}  ${String(a.status ?? '-').padStart(4)}  ${String(a.latencyMs).padStart(6)} ms${a.probe ? '  probe' : ''}${a.error ? `  ${a.error}` : ''}\n`,
    );
    if (a.response) out.write(`      ${a.response.replace(/\s+/g, ' ').slice(0, 200)}\n`);
  }
}

async function list(args: string[], ctx: CommandContext, config: Config): Promise<number> {
  const { values } = parse(args, {
    status: { type: 'string' },
    connection: { type: 'string' },
    type: { type: 'string' },
    key: { type: 'string' },
    limit: { type: 'string' },
    before: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.status && !(DELIVERY_STATUSES as readonly string[]).includes(values.status))
    throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new UsageError('--limit must be an integer from 1 to 10000');
  const filter: DeliveryFilter = {
    ...filterOf(values),
    ...(values.status ? { status: values.status as DeliveryFilter['status'] } : {}),
  };
  const before = values.before ? deliveryId(values.before) : undefined;
  const page = await withServiceDeps(config, (deps) => listDeliveries(deps.store, filter, { limit, before }));
  if (values.json) {
    for (const d of page.deliveries) ctx.stdout.write(`${JSON.stringify(d)}\n`);
    return 0;
  }
  ctx.stdout.write(
    `${['    id', 'connection'.padEnd(12), 'type'.padEnd(22), 'status'.padEnd(9), 'att', 'http', 'order key'.padEnd(24), 'webhook-id', 'error'].join('  ')}\n`,
  );
  for (const d of page.deliveries) ctx.stdout.write(`${row(d)}\n`);
  ctx.stdout.write(
    `${page.deliveries.length} of ${page.total}${page.nextBefore ? ` (next page: --before ${page.nextBefore})` : ''}\n`,
  );
  return 0;
}

async function show(args: string[], ctx: CommandContext, config: Config): Promise<number> {
  const { positionals, values } = parse(args, { json: { type: 'boolean' } }, true);
  if (positionals.length !== 1) throw new UsageError('deliveries show takes one delivery id');
  const id = deliveryId(positionals[0]!);
  const detail = await withServiceDeps(config, (deps) => deliveryDetail(deps.store, id));
  if (!detail) {
    ctx.stderr.write(`delivery ${id}: no such delivery\n`);
    return 1;
  }
  if (values.json) ctx.stdout.write(`${JSON.stringify(detail, null, 2)}\n`);
  else printDetail(detail, ctx.stdout);
  return 0;
}

async function resend(args: string[], ctx: CommandContext, config: Config): Promise<number> {
  const { positionals, values } = parse(
    args,
    {
      dead: { type: 'boolean' },
      connection: { type: 'string' },
      type: { type: 'string' },
      key: { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    true,
  );
  if (values.dead) {
    if (positionals.length > 0) throw new UsageError('deliveries resend takes ids or --dead with filters, not both');
    const filter = filterOf(values);
    const result = await withServiceDeps(config, (deps) =>
      resendDead(deps.store, filter, deps.clock.now(), values['dry-run'] ?? false),
    );
    ctx.stdout.write(
      result.dryRun
        ? `${result.matched} dead deliveries match (dry run: nothing resent)\n`
        : `${result.resent} of ${result.matched} dead deliveries pending again\n`,
    );
    return 0;
  }
  if (values.connection || values.type || values.key || values['dry-run'])
    throw new UsageError('filters and --dry-run go with --dead');
  if (positionals.length === 0) throw new UsageError('deliveries resend takes one or more delivery ids, or --dead');
  const ids = positionals.map(deliveryId);
  return withServiceDeps(config, async (deps) => {
    let code = 0;
    for (const id of ids) {
      const result = await resendOne(deps.store, id, deps.clock.now());
      if (result.ok) ctx.stdout.write(`delivery ${id}: pending again (${result.delivery.webhookId})\n`);
      else {
        code = 1;
        ctx.stderr.write(
          `delivery ${id}: ${result.reason === 'not_found' ? 'no such delivery' : 'pending: it is on its way already'}\n`,
        );
      }
    }
    return code;
  });
}

export const deliveriesCommand: Command = {
  name: 'deliveries',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const [sub, ...rest] = args;
      if (sub !== 'list' && sub !== 'show' && sub !== 'resend')
        throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'missing subcommand');
      const config = configFrom(ctx);
      if (!config) return 1;
      if (sub === 'list') return list(rest, ctx, config);
      if (sub === 'show') return show(rest, ctx, config);
      return resend(rest, ctx, config);
    }),
};
