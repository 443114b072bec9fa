import { z } from '@hono/zod-openapi';
import { INBOUND_STATUSES, type InboundStatus, type Store } from '../store/index.js';
import { WEBHOOK_KINDS } from '../wms/webhooks.js';

const statusCounts = z
  .record(z.enum(INBOUND_STATUSES), z.int())
  .openapi({ description: 'Events per status (every status, zeros included)' });

export const recentInboundSchema = z
  .object({
    since: z.string().openapi({ format: 'date-time' }),
    kinds: z
      .array(z.object({ kind: z.string(), counts: statusCounts, total: z.int() }))
      .openapi({ description: 'One row per webhook kind' }),
    totals: statusCounts,
    total: z.int(),
  })
  .openapi('RecentInboundEvents');
export type RecentInbound = z.infer<typeof recentInboundSchema>;

const zeros = () => Object.fromEntries(INBOUND_STATUSES.map((s) => [s, 0])) as Record<InboundStatus, number>;

/**
 * The connection's webhook events received since `since`, counted by kind and by status (their
 * outcome so far), every known kind and status listed with its zero. A repeated webhook counts
 * once: it is the same event.
 */
export async function recentInbound(store: Store, connection: string, since: Date): Promise<RecentInbound> {
  const byKind = new Map<string, Record<InboundStatus, number>>(WEBHOOK_KINDS.map((k) => [k, zeros()]));
  const totals = zeros();
  for (const row of await store.readModels.inboundCounts(connection, since)) {
    const counts = byKind.get(row.kind) ?? byKind.set(row.kind, zeros()).get(row.kind)!;
    counts[row.status] = (counts[row.status] ?? 0) + row.n;
    totals[row.status] = (totals[row.status] ?? 0) + row.n;
  }
  const sum = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
  return {
    since: since.toISOString(),
    kinds: [...byKind].map(([kind, counts]) => ({ kind, counts, total: sum(counts) })),
    totals,
    total: sum(totals),
  };
}
