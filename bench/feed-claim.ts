/**
 * The ERP delivery claim with a backlog behind each key, on both stores, through the store's own
 * API (`ErpDeliveriesRepo.claim`/`finish`, the calls the delivery worker makes). The state it builds is
 * an ERP outage's: every order key's head has failed and waits for its retry an hour later, and the
 * deliveries queued behind the heads are due (they were never tried: a key goes in feed order).
 * - "claim, nothing claimable": claims per second while every head waits (each claim finds none).
 * - "drain": once the ERP is back and the heads are due, deliveries per second claimed 64 at a time
 *   and finished delivered, until none is left (claim and finish: the worker's store work, no HTTP).
 * Baseline: the same keys with no backlog (one delivery each). The ratio says what the backlog costs.
 * Usage: npm run bench:feed-claim [-- --keys 5000 --behind 4 --claims 200]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { DeliveryResult } from '../src/store/erp-deliveries/contract.js';
import type { Store } from '../src/store/index.js';
import { createPgStore } from '../src/store/pg/store.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import { tempDir } from '../test/support/tmp.js';
import { BENCH_PG_URL, postgresAnswers } from './lib/postgres.js';
import { quick } from './lib/quick.js';
import { printTable, type Row, timed, writeResults } from './lib/report.js';

const QUICK = quick({ keys: '1000', claims: '100' });
const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '5000' },
    behind: { type: 'string', default: '4' },
    claims: { type: 'string', default: '200' },
  },
});
const KEYS = Number(values.keys);
const BEHIND = Number(values.behind);
const CLAIMS = Number(values.claims);
const LIMIT = 64;
const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const HOUR = 3_600_000;
const CONNECTION = 'acme';

const result = (
  id: number,
  outcome: DeliveryResult['outcome'],
  at: number,
  nextAttemptAt?: number,
): DeliveryResult => ({
  id,
  outcome,
  status: outcome === 'delivered' ? 200 : 503,
  latencyMs: 1,
  response: null,
  error: outcome === 'retry' ? 'ERP down' : null,
  probe: false,
  at: new Date(at),
  ...(nextAttemptAt === undefined ? {} : { nextAttemptAt: new Date(nextAttemptAt) }),
});

/** Every key's head failed once and waits an hour; `behind` deliveries of each key wait behind it, due. */
async function outage(store: Store, behind: number): Promise<number> {
  let feedId = 0;
  const rows = [];
  for (let i = 0; i <= behind; i++)
    for (let k = 0; k < KEYS; k++)
      rows.push({
        connection: CONNECTION,
        feedEntryId: ++feedId,
        type: 'reception.closed' as const,
        orderKey: `doc:PO-${k}`,
        feedAt: new Date(T0),
      });
  for (let i = 0; i < rows.length; i += 2_000)
    await store.erpDeliveries.enqueue(
      CONNECTION,
      rows.slice(i, i + 2_000),
      rows[Math.min(i + 2_000, rows.length) - 1]!.feedEntryId,
      new Date(T0),
    );
  const now = T0 + 1_000;
  const heads = await store.erpDeliveries.claim({
    connections: [CONNECTION],
    owner: 'bench',
    now: new Date(now),
    leaseUntil: new Date(now + 60_000),
    limit: KEYS,
  });
  if (heads.length !== KEYS) throw new Error(`expected ${KEYS} heads, claimed ${heads.length}`);
  for (let i = 0; i < heads.length; i += 500)
    await store.erpDeliveries.finish(
      'bench',
      heads.slice(i, i + 500).map((h) => result(h.delivery.id, 'retry', now, now + HOUR)),
    );
  return rows.length;
}

async function measure(
  store: Store,
  behind: number,
): Promise<{ claimsPerSec: number; drainPerSec: number; total: number }> {
  const total = await outage(store, behind);
  const now = T0 + 2_000;
  const idle = await timed(async () => {
    for (let i = 0; i < CLAIMS; i++) {
      const got = await store.erpDeliveries.claim({
        connections: [CONNECTION],
        owner: 'bench',
        now: new Date(now),
        leaseUntil: new Date(now + 60_000),
        limit: LIMIT,
      });
      if (got.length > 0) throw new Error('a delivery was claimable while every head waits for its retry');
    }
  });
  // The ERP is back: the heads are due (as the breaker's close makes them), the rest drains behind.
  const back = T0 + HOUR + 10_000;
  let sent = 0;
  const drain = await timed(async () => {
    for (;;) {
      const got = await store.erpDeliveries.claim({
        connections: [CONNECTION],
        owner: 'bench',
        now: new Date(back),
        leaseUntil: new Date(back + 60_000),
        limit: LIMIT,
      });
      if (got.length === 0) break;
      await store.erpDeliveries.finish(
        'bench',
        got.map((g) => result(g.delivery.id, 'delivered', back)),
      );
      sent += got.length;
    }
  });
  if (sent !== total) throw new Error(`drained ${sent} of ${total}`);
  return { claimsPerSec: (CLAIMS / idle.ms) * 1000, drainPerSec: (total / drain.ms) * 1000, total };
}

async function withSqlite<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const tmp = tempDir('bench-feed-claim');
  const store = createSqliteStore({ file: `${tmp.dir}/claim.db` });
  await store.migrate();
  try {
    return await fn(store);
  } finally {
    await store.close();
    tmp.remove();
  }
}

async function withPostgres<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const schema = `bench_feed_claim_${Date.now()}`;
  const admin = new pg.Client({ connectionString: BENCH_PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const store = createPgStore({ url: BENCH_PG_URL, schema, poolSize: 4 });
  try {
    await store.migrate();
    return await fn(store);
  } finally {
    await store.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

const rows: Row[] = [];
const chart: { label: string; ours: number; baseline: number; unit: string }[] = [];
const dialects: [string, typeof withSqlite][] = [['SQLite', withSqlite]];
if (await postgresAnswers()) dialects.push(['Postgres', withPostgres]);
else process.stdout.write('\nPostgres not reachable: its rows left out (set BENCH_DATABASE_URL)\n');
for (const [name, open] of dialects) {
  const base = await open((s) => measure(s, 0));
  const backlog = await open((s) => measure(s, BEHIND));
  rows.push(
    {
      store: name,
      scenario: `${KEYS} keys, none behind (baseline)`,
      pending: base.total,
      'idle claims/s': Math.round(base.claimsPerSec),
      'drain deliveries/s': Math.round(base.drainPerSec),
      'idle ratio': 1,
      'drain ratio': 1,
    },
    {
      store: name,
      scenario: `${KEYS} keys, ${BEHIND} behind each head`,
      pending: backlog.total,
      'idle claims/s': Math.round(backlog.claimsPerSec),
      'drain deliveries/s': Math.round(backlog.drainPerSec),
      'idle ratio': backlog.claimsPerSec / base.claimsPerSec,
      'drain ratio': backlog.drainPerSec / base.drainPerSec,
    },
  );
  chart.push(
    {
      label: `${name}: idle claim, ${BEHIND} behind vs none`,
      ours: backlog.claimsPerSec,
      baseline: base.claimsPerSec,
      unit: 'claims/s',
    },
    {
      label: `${name}: drain, ${BEHIND} behind vs none`,
      ours: backlog.drainPerSec,
      baseline: base.drainPerSec,
      unit: 'deliveries/s',
    },
  );
}
const title = `ERP delivery claim after an outage: ${KEYS} order keys, each head waiting for its retry; claims of ${LIMIT}`;
printTable(title, rows);
process.stdout.write(
  `\nwrote ${writeResults('feed-claim', { keys: KEYS, behind: BEHIND, claims: CLAIMS, limit: LIMIT, quick: QUICK, tables: [{ title, rows }], chart })}\n`,
);
