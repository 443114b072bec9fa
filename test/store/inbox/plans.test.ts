import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../../../src/store/sqlite/store.js';
import type { InboxFilter } from '../../../src/store/types.js';
import { queryPlan, recordStatements } from '../../support/sqlite-plans.js';
import { tempDir } from '../../support/tmp.js';

/**
 * The console's event list must stay fast on a large store (bench:admin-events measures it with
 * 100,000 events): here, every combination of its filters is planned by SQLite with an index for
 * the queries it runs (the page, and the total), never a scan of the table's rows. One exception,
 * on purpose: a kind across every connection (no other filter) is counted by walking the events,
 * since an index for it would be paid by every webhook's insert (docs/webhooks.md, "Indexes");
 * kinds are dense (one event in five), so the page itself is found within a few rows.
 */
describe('admin event list: every filter combination is an index lookup (SQLite query plans)', () => {
  const tmp = tempDir('inbox-plans');
  let store: SqliteStore;
  let statements: string[] = [];

  beforeAll(async () => {
    store = createSqliteStore({ file: `${tmp.dir}/plans.db` });
    await store.migrate();
    await store.inbox.record({
      connection: 'acme',
      kind: 'reception-close',
      dedupeKey: 'k1',
      payload: '{}',
      businessCode: 'C1',
      at: new Date('2026-11-20T10:00:00Z'),
    });
    statements = recordStatements(store.database.raw);
  });
  afterAll(async () => {
    await store.close();
    tmp.remove();
  });

  const parts: [string, InboxFilter][] = [
    ['connection', { connection: 'acme' }],
    ['kind', { kind: 'reception-close' }],
    ['status', { status: 'quarantined' }],
    ['code', { businessCode: 'C1' }],
    ['range', { receivedFrom: new Date('2026-11-01T00:00:00Z'), receivedTo: new Date('2026-11-30T00:00:00Z') }],
  ];
  const combos = Array.from({ length: 2 ** parts.length - 1 }, (_, n) => n + 1).map((mask) => {
    const chosen = parts.filter((_, i) => mask & (1 << i));
    return [
      chosen.map(([name]) => name).join(' + '),
      Object.assign({}, ...chosen.map(([, f]) => f)) as InboxFilter,
    ] as const;
  });

  const walksRows = (name: string) => name === 'kind';

  it.each(combos)('%s', async (name, filter) => {
    statements.length = 0;
    expect(await store.inbox.list({ ...filter, limit: 51 })).toHaveLength(filter.status ? 0 : 1);
    expect(await store.inbox.count(filter)).toBe(filter.status ? 0 : 1);
    expect(await store.inbox.countUpTo(filter, 5)).toBe(filter.status ? 0 : 1);
    const queries = statements.filter((s) => /from "?inbound_events"?/i.test(s));
    expect(queries.length).toBeGreaterThanOrEqual(3);
    for (const sql of queries) {
      // Plans do not depend on the values (no statistics): every parameter bound to null.
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null);
      const plan = queryPlan(store.database.raw, sql, ...params);
      // "SEARCH … USING [COVERING] INDEX", "SCAN … USING COVERING INDEX": an index; a bare "SCAN inbound_events" reads every row.
      const scans = plan.filter((d) => /^SCAN inbound_events$/.test(d) || /^SCAN inbound_events USING INDEX/.test(d));
      if (walksRows(name)) {
        // Walked newest first in the table's own order: the page stops after its 51 rows.
        expect(
          plan.filter((d) => /TEMP B-TREE/.test(d)),
          `${sql}\n${plan.join('\n')}`,
        ).toEqual([]);
        continue;
      }
      expect(scans, `${sql}\n${plan.join('\n')}`).toEqual([]);
    }
  });
});
