import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_LOCKS } from '../../../src/store/erp-deliveries/pg-order.js';
import type { Store } from '../../../src/store/index.js';
import { createPgStore } from '../../../src/store/pg/store.js';
import { createTestSchema } from '../../support/pg.js';
import { until } from '../../support/wait.js';

const T0 = new Date('2026-03-01T08:00:00.000Z');
const LEASE = new Date(T0.getTime() + 60_000);

/**
 * Two processes change one order key at once: one finishes the key's head while the other adds a
 * delivery behind it. Each transaction refreshes the key's head mark; without the key's lock each
 * would miss the other's uncommitted change (the finisher sees no other pending delivery, the
 * enqueuer sees the old head still pending) and the key would be left with no head: never claimed
 * again. With the lock, the second waits for the first's commit, then sees it.
 */
describe('ERP delivery heads on Postgres: two processes on one key', () => {
  let db: Awaited<ReturnType<typeof createTestSchema>>;
  let a: Store;
  let b: Store;
  let watcher: pg.Client;

  beforeAll(async () => {
    db = await createTestSchema('delivery_heads');
    a = createPgStore({ url: db.url, schema: db.schema, poolSize: 2 });
    await a.migrate();
    b = createPgStore({ url: db.url, schema: db.schema, poolSize: 2 });
    watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
  });
  afterAll(async () => {
    await watcher.end();
    await a.close();
    await b.close();
    await db.drop();
  });

  const row = (connection: string, feedEntryId: number) => ({
    connection,
    feedEntryId,
    type: 'reception.closed' as const,
    orderKey: 'doc:PO-1',
    feedAt: T0,
  });
  // A key lock (the two-key form, in the order keys' namespace) that somebody waits for: other
  // suites on the same server take advisory locks of their own, never in this namespace.
  const waitingForAKeyLock = async () =>
    (
      await watcher.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objsubid = 2 AND classid = $1::oid`,
        [KEY_LOCKS],
      )
    ).rows[0].n > 0;

  it("a delivery added while another process finishes its key's head becomes the head", async () => {
    const connection = 'acme';
    await a.erpDeliveries.enqueue(connection, [row(connection, 1)], 1, T0);
    const [head] = await b.erpDeliveries.claim({
      connections: [connection],
      owner: 'b',
      now: T0,
      leaseUntil: LEASE,
      limit: 5,
    });
    expect(head!.delivery.feedEntryId).toBe(1);

    let finished = false;
    let finishing: Promise<unknown> = Promise.resolve();
    await a.transaction(async (tx) => {
      await tx.erpDeliveries.enqueue(connection, [row(connection, 2)], 2, T0);
      // B delivers the head while A's transaction (with the new delivery) is still open.
      finishing = b.erpDeliveries
        .finish('b', [
          {
            id: head!.delivery.id,
            outcome: 'delivered',
            status: 200,
            latencyMs: 1,
            response: null,
            error: null,
            probe: false,
            at: T0,
          },
        ])
        .then(() => (finished = true));
      // Either B waits for the key's lock (held by A until its commit), or, with no lock, B is done.
      await until(async () => finished || (await waitingForAKeyLock()), {
        message: 'the finisher neither waited nor finished',
      });
    });
    await finishing;

    const next = await a.erpDeliveries.claim({
      connections: [connection],
      owner: 'a',
      now: T0,
      leaseUntil: LEASE,
      limit: 5,
    });
    expect(next.map((c) => c.delivery.feedEntryId)).toEqual([2]);
  });
});
