import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ProcessingRepo } from '../types.js';
import type { SqliteDatabase, SqliteOrm } from './database.js';
import type { Run } from './runner.js';
import { confirmations as c, inboundEvents as t, outboundRecords as o } from './schema.js';

const p = (name: string) => sql.placeholder(name);
/** A placeholder where drizzle expects a value (`set`, `values`): bound as given. */
const v = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * Processing runs these for every acknowledged event, in the receiver's process: built and
 * prepared once (building a drizzle query and preparing it cost several times running it).
 * Writes whose result is not read are plain SQL; times are bound as epoch milliseconds and JSON
 * as text, the columns' storage forms.
 */
function prepare(orm: SqliteOrm, raw: SqliteDatabase['raw']) {
  return {
    claim: orm
      .update(t)
      .set({ attempts: sql`${t.attempts} + 1`, updatedAt: v('at') })
      .where(and(sql`${t.id} IN (SELECT value FROM json_each(${p('ids')}))`, inArray(t.status, ['received', 'failed'])))
      .returning()
      .prepare(),
    documents: orm
      .select({ externalCode: o.externalCode, payload: o.payload })
      .from(o)
      .where(and(eq(o.connection, p('connection')), eq(o.entity, 'document'), sql`${o.externalCode} IN (SELECT value FROM json_each(${p('codes')}))`))
      .prepare(),
    appendConfirmation: orm
      .insert(c)
      .values({ connection: v('connection'), type: v('type'), dedupeKey: v('dedupeKey'), sourceEventId: v('sourceEventId'), data: v('data'), createdAt: v('at') })
      .onConflictDoNothing({ target: [c.connection, c.dedupeKey] })
      .returning()
      .prepare(),
    confirmationByKey: orm
      .select()
      .from(c)
      .where(and(eq(c.connection, p('connection')), eq(c.dedupeKey, p('dedupeKey'))))
      .prepare(),
    recordMovement: raw.prepare(
      `INSERT INTO stock_ledger (connection, product_external_code, lot_code, warehouse, quantity, movement_time, source, dedupe_key, source_event_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (connection, dedupe_key) DO NOTHING`,
    ),
    markProcessed: raw.prepare(`UPDATE inbound_events SET status = 'processed', error = NULL, quarantine_reason = NULL, processed_at = @at, updated_at = @at WHERE id = @id`),
    markQuarantined: raw.prepare(`UPDATE inbound_events SET status = 'quarantined', quarantine_reason = ?, updated_at = ? WHERE id = ? AND status = 'received'`),
    recordAttempt: raw.prepare(`INSERT INTO inbound_attempts (event_id, connection, outcome, error, created_at) VALUES (?, ?, ?, ?, ?)`),
  };
}

export function sqliteProcessing(orm: SqliteOrm, raw: SqliteDatabase['raw'], run: Run): ProcessingRepo {
  let prepared: ReturnType<typeof prepare> | undefined;
  // Prepared on first use: the tables exist only once the store is migrated.
  const s = () => (prepared ??= prepare(orm, raw));
  return {
    claim: (ids, at) =>
      run(() => (ids.length === 0 ? [] : s().claim.all({ ids: JSON.stringify(ids), at: at.getTime() }).sort((a, b) => a.id - b.id))),

    documents: (connection, codes) => run(() => (codes.length === 0 ? [] : s().documents.all({ connection, codes: JSON.stringify(codes) }))),

    complete: (events, at) =>
      run(() => {
        const st = s();
        const ms = at.getTime();
        return events.map((e) => {
          for (const m of e.movements) {
            st.recordMovement.run(
              m.connection, m.productExternalCode, m.lotCode ?? '', m.warehouse, m.quantity, m.movementTime.getTime(), m.source, m.dedupeKey, m.sourceEventId ?? null, m.at.getTime(),
            );
          }
          st.markProcessed.run({ at: ms, id: e.eventId });
          st.recordAttempt.run(e.eventId, e.connection, 'processed', null, ms);
          const input = e.confirmation;
          const key = { connection: input.connection, dedupeKey: input.dedupeKey };
          const inserted = st.appendConfirmation.get({
            ...key,
            type: input.type,
            sourceEventId: input.sourceEventId ?? null,
            data: JSON.stringify(input.data),
            at: input.at.getTime(),
          });
          if (inserted) return { confirmation: inserted, created: true };
          return { confirmation: st.confirmationByKey.get(key)!, created: false };
        });
      }),

    quarantine: (events, at) =>
      run(() => {
        const st = s();
        const ms = at.getTime();
        return events.map((e) => {
          if (st.markQuarantined.run(e.reason, ms, e.eventId).changes === 0) return false;
          st.recordAttempt.run(e.eventId, e.connection, 'quarantined', e.reason, ms);
          return true;
        });
      }),
  };
}
