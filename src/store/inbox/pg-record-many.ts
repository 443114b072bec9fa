import type { InboundEvent, NewInboundEvent } from './contract.js';

/**
 * Many events in one statement and one round trip: arrays unnested into rows, each key once (the
 * repeats within the batch are folded into its `duplicates`). `xmax = 0` tells a row this
 * statement inserted from one it updated. Rows are written in the arrays' order.
 */
export const RECORD_MANY_SQL = `INSERT INTO inbound_events (connection, kind, dedupe_key, status, payload, error, request_id, received_at, updated_at, duplicates, last_duplicate_at, business_code, quarantine_reason, traceparent)
         SELECT c, k, d, s, p, e, r, a, a, n, l, b, q, t
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::int[], $10::timestamptz[], $11::text[], $12::text[], $13::text[])
           AS u(c, k, d, s, p, e, r, a, n, l, b, q, t)
         ON CONFLICT (connection, dedupe_key) DO UPDATE
           SET duplicates = inbound_events.duplicates + excluded.duplicates + 1,
               last_duplicate_at = COALESCE(excluded.last_duplicate_at, excluded.received_at)
         RETURNING id, connection, dedupe_key, status, duplicates, (xmax = 0) AS inserted`;

const keyOf = (connection: string, dedupeKey: string) => `${connection}\u0000${dedupeKey}`;

export interface RecordManyRow {
  id: string;
  connection: string;
  dedupe_key: string;
  status: InboundEvent['status'];
  duplicates: number;
  inserted: boolean;
}

/**
 * A batch for RECORD_MANY_SQL: each key once (its first input, and how often it came), the
 * statement's 13 parameters, and the answer for every input from the rows it returns.
 */
export function recordManyBatch<T extends NewInboundEvent>(inputs: readonly T[]) {
  const unique = new Map<string, { input: T; count: number; lastAt: Date }>();
  for (const input of inputs) {
    const key = keyOf(input.connection, input.dedupeKey);
    const seen = unique.get(key);
    if (seen) {
      seen.count += 1;
      seen.lastAt = input.at;
    } else unique.set(key, { input, count: 1, lastAt: input.at });
  }
  const u = [...unique.values()];
  return {
    firsts: u.map((x) => x.input),
    values: [
      u.map((x) => x.input.connection),
      u.map((x) => x.input.kind),
      u.map((x) => x.input.dedupeKey),
      u.map((x) => x.input.status ?? 'received'),
      u.map((x) => x.input.payload),
      u.map((x) => x.input.error ?? null),
      u.map((x) => x.input.requestId ?? null),
      u.map((x) => x.input.at),
      u.map((x) => x.count - 1),
      u.map((x) => (x.count > 1 ? x.lastAt : null)),
      u.map((x) => x.input.businessCode ?? null),
      u.map((x) => x.input.quarantineReason ?? null),
      u.map((x) => x.input.traceparent ?? null),
    ] as unknown[],
    answer: (rows: readonly RecordManyRow[]) => {
      const byKey = new Map(rows.map((r) => [keyOf(r.connection, r.dedupe_key), r]));
      const answered = new Set<string>();
      return inputs.map((input) => {
        const key = keyOf(input.connection, input.dedupeKey);
        const row = byKey.get(key)!;
        const first = !answered.has(key);
        answered.add(key);
        return {
          event: { id: Number(row.id), status: row.status, duplicates: row.duplicates },
          duplicate: first ? !row.inserted : true,
        };
      });
    },
  };
}
