import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PgBossQueue } from '../../src/queue/pgboss.js';
import { createPgStore } from '../../src/store/pg/store.js';
import { createTestSchema } from '../support/pg.js';
import { until } from '../support/wait.js';
import { nextEvent } from './events.js';
import { PGBOSS_TUNING } from './fixtures.js';

/**
 * Processes of one deployment (`serve` and `worker`, two workers, the CLI) wake each other's idle
 * loops through LISTEN/NOTIFY. The loops here poll once an hour, so a job picked up before the
 * test's timeout was woken by a notification.
 */
const HOUR = 3_600_000;

interface Two {
  sender: PgBossQueue;
  worker: PgBossQueue;
  url: string;
  schema: string;
  close(): Promise<void>;
}

const opened: Two[] = [];
afterEach(async () => {
  for (const two of opened.splice(0)) await two.close();
});

/** Two queues on one schema with pools of their own, as two processes have. */
async function openTwo(options: { notify?: boolean } = {}): Promise<Two> {
  const db = await createTestSchema('notify');
  const a = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  await a.migrate();
  const b = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  const schema = `${db.schema}_boss`;
  const sender = new PgBossQueue({ pool: a.database.pool, schema, ...PGBOSS_TUNING, ...options });
  const worker = new PgBossQueue({ pool: b.database.pool, schema, ...PGBOSS_TUNING, ...options });
  await sender.start();
  await worker.start();
  const two: Two = {
    sender,
    worker,
    url: db.url,
    schema,
    close: async () => {
      await Promise.all([sender.stop({ graceMs: 1000 }), worker.stop({ graceMs: 1000 })]);
      await b.close();
      await a.close();
      await db.drop();
    },
  };
  opened.push(two);
  return two;
}

/** A loop on `name` that has run one job of its own and now sleeps for an hour. */
async function idleLoop(queue: PgBossQueue, name: string, seen: number[]): Promise<void> {
  await queue.createQueue(name);
  // batchSize 2: a batch of one job is not full, so the loop sleeps after it instead of fetching again.
  await queue.work<{ n: number }>(name, { pollIntervalMs: HOUR, batchSize: 2 }, async (job) => {
    seen.push(job.data.n);
  });
  const first = nextEvent(queue, 'completed', (e) => e.name === name);
  await queue.send(name, { n: 0 });
  await first;
}

async function listenerPids(url: string, schema: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE query = $1`, [
      `LISTEN "wms_sync_jobs:${schema}"`,
    ]);
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

describe('queue wake across processes (LISTEN/NOTIFY)', () => {
  it("a send in one process wakes another process's idle loop", async () => {
    const { sender, worker } = await openTwo();
    const name = `n-${randomUUID().slice(0, 8)}`;
    const seen: number[] = [];
    await idleLoop(worker, name, seen);
    const woken = nextEvent(worker, 'completed', (e) => e.name === name, 20_000);
    await sender.send(name, { n: 1 });
    await woken;
    // Many sends at once: throttled to a few notifications, every job still fetched.
    let more = 0;
    const all = nextEvent(worker, 'completed', (e) => e.name === name && ++more === 4, 20_000);
    await sender.sendMany(
      name,
      [2, 3].map((n) => ({ data: { n } })),
    );
    await Promise.all([sender.send(name, { n: 4 }), sender.send(name, { n: 5 })]);
    await all;
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a send inside a transaction wakes the other process once committed', async () => {
    const db = await createTestSchema('notify-tx');
    const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
    await store.migrate();
    const peer = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
    const schema = `${db.schema}_boss`;
    const sender = new PgBossQueue({ pool: store.database.pool, schema, ...PGBOSS_TUNING });
    const worker = new PgBossQueue({ pool: peer.database.pool, schema, ...PGBOSS_TUNING });
    try {
      await sender.start();
      await worker.start();
      const name = `t-${randomUUID().slice(0, 8)}`;
      const seen: number[] = [];
      await idleLoop(worker, name, seen);
      const woken = nextEvent(worker, 'completed', (e) => e.name === name, 20_000);
      await store.transaction(async (tx) => {
        await sender.send(name, { n: 7 }, { tx });
      });
      await woken;
      expect(seen).toEqual([0, 7]);
    } finally {
      await Promise.all([sender.stop({ graceMs: 1000 }), worker.stop({ graceMs: 1000 })]);
      await peer.close();
      await store.close();
      await db.drop();
    }
  });

  it('a lost listening connection comes back, and a job sent while it was down is fetched then', async () => {
    const { sender, worker, url, schema } = await openTwo();
    const name = `r-${randomUUID().slice(0, 8)}`;
    const seen: number[] = [];
    await idleLoop(worker, name, seen);
    const errors: Error[] = [];
    worker.on('error', (err) => errors.push(err));
    // The server ends the connection (a restart, a failover, an idle timeout in a proxy).
    const [pid] = await until(() => listenerPids(url, schema).then((pids) => (pids.length === 1 ? pids : undefined)));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    const fetched = nextEvent(worker, 'completed', (e) => e.name === name, 30_000);
    await sender.send(name, { n: 9 });
    await fetched;
    expect(seen).toEqual([0, 9]);
    expect(errors.some((e) => /terminat|ended|connection/i.test(e.message))).toBe(true);
    const back = await until(() =>
      listenerPids(url, schema).then((pids) => (pids.length === 1 && pids[0] !== pid ? pids : undefined)),
    );
    expect(back).toHaveLength(1);
  });

  it('notify: false opens no listening connection (each process relies on its poll)', async () => {
    const { worker, url, schema } = await openTwo({ notify: false });
    const seen: number[] = [];
    await idleLoop(worker, `q-${randomUUID().slice(0, 8)}`, seen);
    expect(seen).toEqual([0]);
    expect(await listenerPids(url, schema)).toEqual([]);
  });
});
