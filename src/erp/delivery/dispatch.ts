import type { ErpWebhookConfig } from '../../lib/connections.js';
import type { Store } from '../../store/types.js';
import { orderKeyOf } from './order-key.js';

/** Feed events read per dispatch transaction. */
const DISPATCH_BATCH = 500;

/**
 * Turns a connection's new feed events (after its cursor) into pending deliveries, the cursor
 * moving in the same transaction: run twice, or by two processes at once, it adds each event
 * once (the cursor row is locked on Postgres, the store is one writer on SQLite, and a delivery
 * is unique per event). Events of types the connection does not push only move the cursor.
 * Returns how many deliveries it added.
 */
export async function dispatchFeed(
  store: Store,
  connection: { name: string; erpWebhook: ErpWebhookConfig },
  at: Date,
): Promise<number> {
  const types = new Set(connection.erpWebhook.events);
  let total = 0;
  for (;;) {
    const { added, more } = await store.transaction(async (tx) => {
      const cursor = await tx.erpDeliveries.lockCursor(connection.name, at);
      const rows = await tx.feed.listAfter(connection.name, cursor, DISPATCH_BATCH);
      if (rows.length === 0) return { added: 0, more: false };
      const wanted = rows.filter((r) => types.has(r.type));
      const n = await tx.erpDeliveries.enqueue(
        connection.name,
        wanted.map((r) => ({
          connection: connection.name,
          feedEntryId: r.id,
          type: r.type,
          orderKey: orderKeyOf(r.type, r.data, r.id),
          feedAt: r.createdAt,
        })),
        rows.at(-1)!.id,
        at,
      );
      return { added: n, more: rows.length === DISPATCH_BATCH };
    });
    total += added;
    if (!more) return total;
  }
}
