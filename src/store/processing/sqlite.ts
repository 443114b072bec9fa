import { EVENT_COLUMNS, type EventRow, toEvent } from '../inbox/sqlite-event-row.js';
import type { SqliteDatabase } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import type { ProcessingRepo } from './contract.js';

/**
 * Processing runs these for every acknowledged event, in the receiver's process and on its one
 * connection, so they are plain SQL prepared once: building a drizzle query, preparing it and
 * mapping its rows cost several times running it (CPU profiles of `wms-sync serve` under load).
 * Times are bound as epoch milliseconds and JSON as text, the columns' storage forms; results are
 * only what processing reads (an id, not the feed entry's whole JSON read back).
 */
function prepare(raw: SqliteDatabase['raw']) {
  return {
    claim: raw.prepare(
      `SELECT ${EVENT_COLUMNS}
       FROM inbound_events WHERE id IN (SELECT value FROM json_each(?)) AND status IN ('received', 'failed') ORDER BY id`,
    ),
    documents: raw.prepare(
      `SELECT external_code, payload FROM wms_pushes
       WHERE connection = ? AND entity = 'document' AND external_code IN (SELECT value FROM json_each(?))`,
    ),
    recordMovement: raw.prepare(
      `INSERT INTO stock_ledger (connection, product_external_code, lot_code, warehouse, quantity, movement_time, source, dedupe_key, source_event_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (connection, dedupe_key) DO NOTHING`,
    ),
    markProcessed: raw.prepare(
      `UPDATE inbound_events SET status = 'processed', attempts = attempts + 1, error = NULL, quarantine_reason = NULL, processed_at = @at, updated_at = @at WHERE id = @id`,
    ),
    markQuarantined: raw.prepare(
      `UPDATE inbound_events SET status = 'quarantined', attempts = attempts + 1, quarantine_reason = ?, updated_at = ? WHERE id = ? AND status = 'received'`,
    ),
    recordAttempt: raw.prepare(
      `INSERT INTO inbound_attempts (event_id, connection, outcome, error, created_at) VALUES (?, ?, ?, ?, ?)`,
    ),
    appendFeedEntry: raw
      .prepare(
        `INSERT INTO feed_entries (connection, type, dedupe_key, source_event_id, data, created_at, traceparent) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (connection, dedupe_key) DO NOTHING RETURNING id`,
      )
      .pluck(),
    feedEntryByKey: raw.prepare(`SELECT id FROM feed_entries WHERE connection = ? AND dedupe_key = ?`).pluck(),
  };
}

export function sqliteProcessing(raw: SqliteDatabase['raw'], run: Run): ProcessingRepo {
  let prepared: ReturnType<typeof prepare> | undefined;
  // Prepared on first use: the tables exist only once the store is migrated.
  const s = () => (prepared ??= prepare(raw));
  return {
    claim: (ids) =>
      run(() => (ids.length === 0 ? [] : (s().claim.all(JSON.stringify(ids)) as EventRow[]).map(toEvent))),

    documents: (connection, codes) =>
      run(() =>
        codes.length === 0
          ? []
          : (s().documents.all(connection, JSON.stringify(codes)) as { external_code: string; payload: string }[]).map(
              (r) => ({
                externalCode: r.external_code,
                payload: JSON.parse(r.payload) as Record<string, unknown>,
              }),
            ),
      ),

    complete: (events, at) =>
      run(() => {
        const st = s();
        const ms = at.getTime();
        return events.map((e) => {
          for (const m of e.movements) {
            st.recordMovement.run(
              m.connection,
              m.productExternalCode,
              m.lotCode ?? '',
              m.warehouse,
              m.quantity,
              m.movementTime.getTime(),
              m.source,
              m.dedupeKey,
              m.sourceEventId ?? null,
              m.at.getTime(),
            );
          }
          st.markProcessed.run({ at: ms, id: e.eventId });
          st.recordAttempt.run(e.eventId, e.connection, 'processed', null, ms);
          const c = e.feedEntry;
          const id = st.appendFeedEntry.get(
            c.connection,
            c.type,
            c.dedupeKey,
            c.sourceEventId ?? null,
            JSON.stringify(c.data),
            c.at.getTime(),
            c.traceparent ?? null,
          ) as number | undefined;
          if (id !== undefined) return { feedEntryId: id, created: true };
          return { feedEntryId: st.feedEntryByKey.get(c.connection, c.dedupeKey) as number, created: false };
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
