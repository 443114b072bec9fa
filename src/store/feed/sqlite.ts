import { and, asc, eq, gt } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import { feedEntries as t } from '../sqlite/schema.js';
import type { FeedRepo } from './contract.js';
import { feedEntryRow } from './rows.js';

export function sqliteFeed(orm: SqliteOrm, run: Run): FeedRepo {
  return {
    append: (input) =>
      run(() => {
        const inserted = orm
          .insert(t)
          .values(feedEntryRow(input))
          .onConflictDoNothing({ target: [t.connection, t.dedupeKey] })
          .returning()
          .get();
        if (inserted) return { feedEntry: inserted, created: true };
        const existing = orm
          .select()
          .from(t)
          .where(and(eq(t.connection, input.connection), eq(t.dedupeKey, input.dedupeKey)))
          .get();
        return { feedEntry: existing!, created: false };
      }),

    listAfter: (connection, afterId, limit) =>
      run(() =>
        orm
          .select()
          .from(t)
          .where(and(eq(t.connection, connection), gt(t.id, afterId)))
          .orderBy(asc(t.id))
          .limit(limit)
          .all(),
      ),

    get: (connection, id) =>
      run(() =>
        orm
          .select()
          .from(t)
          .where(and(eq(t.connection, connection), eq(t.id, id)))
          .get(),
      ),

    bySourceEvent: (eventId) =>
      run(() => orm.select().from(t).where(eq(t.sourceEventId, eventId)).orderBy(asc(t.id)).all()),
  };
}
