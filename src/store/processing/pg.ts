import { EVENT_COLUMNS } from '../inbox/event-row.js';
import { type RecordRow, toEvent } from '../inbox/pg.js';
import type { PgOrm } from '../pg/database.js';
import type { ProcessingRepo } from './contract.js';

/** The feed-order lock of `feed entries.ts`: ids commit in the order they were drawn. */
const FEED_LOCK = 0x77_6d_73_01;

/**
 * Processing's statements as named prepared statements (parsed once per connection, no query
 * builder per event), each for a whole batch of events: one round trip per statement, not per
 * event. Arrays are unnested into rows.
 */
const CLAIM = {
  name: 'wms_sync_processing_read',
  text: `SELECT ${EVENT_COLUMNS} FROM inbound_events WHERE id = ANY($1::bigint[]) AND status IN ('received', 'failed') ORDER BY id`,
};
const DOCUMENTS = {
  name: 'wms_sync_processing_documents',
  text: `SELECT external_code, payload FROM wms_pushes WHERE connection = $1 AND entity = 'document' AND external_code = ANY($2::text[])`,
};
// A batch's rows travel as one JSON parameter: serializing it is one native JSON.stringify, where
// text arrays are escaped element by element in JavaScript (the feed entries' JSON most of all).
// Movements, `processed` and the attempts are one statement (data-modifying CTEs all run to
// completion), one round trip.
const RECORD_PROCESSED = {
  name: 'wms_sync_processing_record',
  text: `WITH moved AS (
           INSERT INTO stock_ledger (connection, product_external_code, lot_code, warehouse, quantity, movement_time, source, dedupe_key, source_event_id, created_at)
           SELECT c, p, l, w, q, t, s, d, e, a
           FROM json_to_recordset($1::json) AS x(c text, p text, l text, w text, q float8, t timestamptz, s text, d text, e bigint, a timestamptz)
           ON CONFLICT (connection, dedupe_key) DO NOTHING
         ), marked AS (
           UPDATE inbound_events SET status = 'processed', attempts = attempts + 1, error = NULL, quarantine_reason = NULL, processed_at = $3, updated_at = $3
           WHERE id = ANY($2::bigint[])
           RETURNING id, connection
         )
         INSERT INTO inbound_attempts (event_id, connection, outcome, error, created_at)
         SELECT id, connection, 'processed', NULL, $3 FROM marked`,
};
const RECORD_ATTEMPTS = {
  name: 'wms_sync_processing_attempts',
  text: `INSERT INTO inbound_attempts (event_id, connection, outcome, error, created_at)
         SELECT e, c, $3, r, $4 FROM unnest($1::bigint[], $2::text[], $5::text[]) AS u(e, c, r)`,
};
const FEED_ORDER = { name: 'wms_sync_processing_feed_lock', text: 'SELECT pg_advisory_xact_lock($1)' };
const FEED_ENTRY_COLUMNS = 'id, connection, dedupe_key';
const APPEND_FEED_ENTRIES = {
  name: 'wms_sync_processing_feed',
  text: `INSERT INTO feed_entries (connection, type, dedupe_key, source_event_id, data, created_at, traceparent)
         SELECT c, ty, d, s, da, a, t
         FROM json_to_recordset($1::json) AS x(n int, c text, ty text, d text, s bigint, da jsonb, a timestamptz, t text)
         ORDER BY n
         ON CONFLICT (connection, dedupe_key) DO NOTHING
         RETURNING ${FEED_ENTRY_COLUMNS}`,
};
const FEED_ENTRIES_BY_KEY = {
  name: 'wms_sync_processing_feed_by_key',
  text: `SELECT ${FEED_ENTRY_COLUMNS.split(', ')
    .map((col) => `f.${col}`)
    .join(', ')}
         FROM feed_entries f JOIN unnest($1::text[], $2::text[]) AS u(c, d) ON f.connection = u.c AND f.dedupe_key = u.d`,
};
const QUARANTINE = {
  name: 'wms_sync_processing_quarantine',
  text: `UPDATE inbound_events e SET status = 'quarantined', attempts = e.attempts + 1, quarantine_reason = u.r, updated_at = $3
         FROM unnest($1::bigint[], $2::text[]) AS u(i, r)
         WHERE e.id = u.i AND e.status = 'received'
         RETURNING e.id`,
};

interface FeedEntryRow {
  id: string;
  connection: string;
  dedupe_key: string;
}

const keyOf = (connection: string, dedupeKey: string) => `${connection}\u0000${dedupeKey}`;

export function pgProcessing(orm: PgOrm): ProcessingRepo {
  const query = <R extends object>(statement: { name: string; text: string }, values: unknown[]) =>
    orm.$client.query<R>({ ...statement, values });
  return {
    claim: async (ids) => {
      if (ids.length === 0) return [];
      const { rows } = await query<RecordRow>(CLAIM, [ids]);
      return rows.map(toEvent);
    },

    documents: async (connection, codes) => {
      if (codes.length === 0) return [];
      const { rows } = await query<{ external_code: string; payload: Record<string, unknown> }>(DOCUMENTS, [
        connection,
        codes,
      ]);
      return rows.map((r) => ({ externalCode: r.external_code, payload: r.payload }));
    },

    complete: async (events, at) => {
      if (events.length === 0) return [];
      const movements = events
        .flatMap((e) => e.movements)
        .map((m) => ({
          c: m.connection,
          p: m.productExternalCode,
          l: m.lotCode ?? '',
          w: m.warehouse,
          q: m.quantity,
          t: m.movementTime,
          s: m.source,
          d: m.dedupeKey,
          e: m.sourceEventId ?? null,
          a: m.at,
        }));
      await query(RECORD_PROCESSED, [JSON.stringify(movements), events.map((e) => e.eventId), at]);
      // Last: the lock is held until this transaction commits.
      await query(FEED_ORDER, [FEED_LOCK]);
      const inputs = events.map((e) => e.feedEntry);
      const { rows } = await query<FeedEntryRow>(APPEND_FEED_ENTRIES, [
        JSON.stringify(
          inputs.map((i, n) => ({
            n,
            c: i.connection,
            ty: i.type,
            d: i.dedupeKey,
            s: i.sourceEventId ?? null,
            da: i.data,
            a: i.at,
            t: i.traceparent ?? null,
          })),
        ),
      ]);
      const created = new Map(rows.map((r) => [keyOf(r.connection, r.dedupe_key), Number(r.id)]));
      const missing = inputs.filter((i) => !created.has(keyOf(i.connection, i.dedupeKey)));
      const existing = new Map<string, number>();
      if (missing.length > 0) {
        const found = await query<FeedEntryRow>(FEED_ENTRIES_BY_KEY, [
          missing.map((i) => i.connection),
          missing.map((i) => i.dedupeKey),
        ]);
        for (const r of found.rows) existing.set(keyOf(r.connection, r.dedupe_key), Number(r.id));
      }
      return inputs.map((i) => {
        const key = keyOf(i.connection, i.dedupeKey);
        const id = created.get(key);
        return id === undefined
          ? { feedEntryId: existing.get(key)!, created: false }
          : { feedEntryId: id, created: true };
      });
    },

    quarantine: async (events, at) => {
      if (events.length === 0) return [];
      const { rows } = await query<{ id: string }>(QUARANTINE, [
        events.map((e) => e.eventId),
        events.map((e) => e.reason),
        at,
      ]);
      const done = new Set(rows.map((r) => Number(r.id)));
      const quarantined = events.filter((e) => done.has(e.eventId));
      if (quarantined.length > 0) {
        await query(RECORD_ATTEMPTS, [
          quarantined.map((e) => e.eventId),
          quarantined.map((e) => e.connection),
          'quarantined',
          at,
          quarantined.map((e) => e.reason),
        ]);
      }
      return events.map((e) => done.has(e.eventId));
    },
  };
}
