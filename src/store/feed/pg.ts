import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { feedEntries as t } from '../pg/schema.js';
import type { FeedRepo } from './contract.js';
import { feedEntryRow } from './rows.js';

/**
 * Identity values are handed out at insert time but become visible at commit time, so two
 * writers can commit ids 11 then 10, and a feed reader at cursor 11 would never see 10. Taking
 * this transaction-scoped lock before the insert makes ids commit in the order they were drawn.
 */
const FEED_LOCK = 0x77_6d_73_01;

export function pgFeed(
  orm: PgOrm,
  inTransaction: boolean,
  withTx: <T>(fn: (orm: PgOrm) => Promise<T>) => Promise<T>,
): FeedRepo {
  const append: FeedRepo['append'] = async (input) => {
    if (!inTransaction) return withTx((txOrm) => pgFeed(txOrm, true, withTx).append(input));
    await orm.execute(sql`SELECT pg_advisory_xact_lock(${FEED_LOCK})`);
    const [inserted] = await orm
      .insert(t)
      .values(feedEntryRow(input))
      .onConflictDoNothing({ target: [t.connection, t.dedupeKey] })
      .returning();
    if (inserted) return { feedEntry: inserted, created: true };
    const [existing] = await orm
      .select()
      .from(t)
      .where(and(eq(t.connection, input.connection), eq(t.dedupeKey, input.dedupeKey)));
    return { feedEntry: existing!, created: false };
  };

  return {
    append,
    listAfter: (connection, afterId, limit) =>
      orm
        .select()
        .from(t)
        .where(and(eq(t.connection, connection), gt(t.id, afterId)))
        .orderBy(asc(t.id))
        .limit(limit),
    get: async (connection, id) =>
      (
        await orm
          .select()
          .from(t)
          .where(and(eq(t.connection, connection), eq(t.id, id)))
      )[0],
    bySourceEvent: (eventId) => orm.select().from(t).where(eq(t.sourceEventId, eventId)).orderBy(asc(t.id)),
  };
}
