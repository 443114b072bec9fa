import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../../../src/store/sqlite/store.js';
import { queryPlan, recordStatements } from '../../support/sqlite-plans.js';
import { tempDir } from '../../support/tmp.js';
import { deliveryClaimContract } from './claim.contract.js';

deliveryClaimContract('sqlite', async () => {
  const tmp = tempDir('delivery-claim');
  const store = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
  await store.migrate();
  return {
    store,
    close: async () => (await store.close(), tmp.remove()),
    clearMarks: async (connection) =>
      void store.database.raw.prepare('UPDATE erp_deliveries SET head = 0 WHERE connection = ?').run(connection),
  };
});

/**
 * What the head mark is for (docs/erp-delivery.md, "Order"): a claim reads the keys' heads only,
 * through the partial index of due heads, so deliveries waiting behind their key's head (a
 * document closed hundreds of times while the ERP is down) cost it nothing. Before the mark, the
 * claim walked every pending delivery by due time and checked each for an earlier one of its key:
 * 100,000 pending behind 20,000 heads in backoff made each claim read all of them (38 ms).
 */
describe('ERP delivery claim on SQLite: reads the heads only (query plans)', () => {
  const tmp = tempDir('delivery-claim-plans');
  let store: SqliteStore;
  let statements: string[] = [];
  const T0 = new Date('2026-03-01T08:00:00.000Z');

  beforeAll(async () => {
    store = createSqliteStore({ file: `${tmp.dir}/plans.db` });
    await store.migrate();
    statements = recordStatements(store.database.raw);
    const rows = Array.from({ length: 500 }, (_, i) => ({
      connection: 'acme',
      feedEntryId: i + 1,
      type: 'reception.closed' as const,
      orderKey: `doc:${i % 5}`,
      feedAt: T0,
    }));
    await store.erpDeliveries.enqueue('acme', rows, 500, T0);
    await store.erpDeliveries.claim({
      connections: ['acme'],
      owner: 'w',
      now: T0,
      leaseUntil: new Date(T0.getTime() + 60_000),
      limit: 10,
    });
    await store.erpDeliveries.claimProbe({
      connection: 'acme',
      owner: 'w',
      now: T0,
      leaseUntil: new Date(T0.getTime() + 60_000),
    });
  });
  afterAll(async () => {
    await store.close();
    tmp.remove();
  });

  const planOf = (source: string) =>
    queryPlan(store.database.raw, source, { now: T0.getTime(), limit: 10, c0: 'acme', connection: 'acme' });

  it("the claim walks the due heads (erp_deliveries_ready), and checks each against its key's first pending one in one index step", () => {
    const claim = statements.find((s) => s.includes('FROM erp_deliveries d') && s.includes('LIMIT @limit'));
    expect(claim).toBeDefined();
    const plan = planOf(claim!);
    expect(plan[0]).toMatch(/^SEARCH d USING INDEX erp_deliveries_ready \(next_attempt_at<\?\)/);
    expect(plan.join(' / ')).toMatch(
      /SEARCH e USING COVERING INDEX erp_deliveries_(pending|key) \(connection=\? AND order_key=\?/,
    );
    expect(plan.join(' / ')).not.toMatch(/SCAN|erp_deliveries_list/);
  });

  it("a breaker probe reads its connection's heads only", () => {
    const probe = statements.find(
      (s) => s.includes('FROM erp_deliveries d') && s.includes('d.connection = @connection'),
    );
    expect(probe).toBeDefined();
    const plan = planOf(probe!).join(' / ');
    expect(plan).toMatch(/^SEARCH d USING INDEX erp_deliveries_heads \(connection=\?\)/);
    expect(plan).not.toMatch(/SCAN d\b|erp_deliveries_list/);
  });
});
