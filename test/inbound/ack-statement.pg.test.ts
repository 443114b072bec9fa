import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedPage } from '../../src/erp/feed/read.js';
import { writeEvents } from '../../src/inbound/ack-writer.js';
import { INBOUND_QUEUE, processJobOptions } from '../../src/inbound/queue.js';
import { bossSchemaFor, type PgBossQueue } from '../../src/queue/index.js';
import type { PgStore } from '../../src/store/pg/store.js';
import type { HeldEvent } from '../../src/store/types.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { PROCESSING_ENV } from './processing.suite.js';
import { postWebhook, uniquePayload } from './support.js';

/**
 * On Postgres the receiver's acknowledgement is ONE statement (store/inbox/pg-ack.ts): the events
 * and their processing jobs, the jobs exactly as pg-boss's `send` would have created them.
 */
describe('one-statement acknowledgement (postgres)', () => {
  let svc: TestService;
  let store: PgStore;
  const acme = testConnection('acme');
  let seq = 0;
  const heldEvent = (over: Partial<HeldEvent> = {}): HeldEvent => {
    seq += 1;
    return {
      connection: 'acme',
      kind: 'reception-close',
      dedupeKey: `reception-close:ACK-${seq}`,
      payload: `{"n":${seq}}`,
      at: new Date(),
      ...over,
    };
  };
  const jobTable = () => `${bossSchemaFor(store.database.schema)}.job`;
  /** The inbound jobs written since `after` (a created_on), oldest first. */
  const jobsSince = async (after: Date) =>
    (
      await store.database.pool.query<
        Record<string, unknown> & { id: string; data: { eventIds: number[] }; held_for: number }
      >(
        `SELECT *, EXTRACT(epoch FROM start_after - created_on)::float8 AS held_for, keep_until - start_after AS kept_for FROM ${jobTable()}
         WHERE name = $1 AND created_on >= $2 ORDER BY created_on, (data->'eventIds'->>0)::bigint`,
        [INBOUND_QUEUE, after],
      )
    ).rows;
  const dbNow = async () =>
    (await store.database.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
  /** What the job would be, whatever its id and times: to compare with one pg-boss's send created. */
  const comparable = (job: Record<string, unknown>) => {
    const { id: _i, data: _d, created_on: _c, start_after: _s, keep_until: _k, held_for: _h, ...rest } = job;
    return rest;
  };

  beforeAll(async () => {
    // pg-boss's own timers are kept quiet: the first test reads the statements on the pool.
    const quiet = { maintenanceIntervalSeconds: 3600, cronWorkerIntervalSeconds: 45, cronMonitorIntervalSeconds: 45 };
    svc = await startTestService({
      label: 'ack-statement',
      dialect: 'postgres',
      connections: [acme],
      env: PROCESSING_ENV,
      queueTuning: { pgboss: quiet },
    });
    if (svc.deps.store.dialect !== 'postgres') throw new Error('a Postgres store was expected');
    store = svc.deps.store;
    await svc.deps.queue.createQueue(INBOUND_QUEUE);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('a batch is one statement: its new events and one job holding them, the job pg-boss would have sent', async () => {
    await writeEvents(svc.deps, [heldEvent()]); // the queue's creation is looked up once, on the first batch
    const since = await dbNow();
    const batch = [
      heldEvent({ dedupeKey: 'reception-close:ACK-Z' }),
      heldEvent({ dedupeKey: 'reception-close:ACK-A' }),
      heldEvent(),
    ];
    // Every statement sent on any connection of the store's pool while the batch is written.
    const texts: string[] = [];
    const pool = store.database.pool;
    const watch = (client: pg.PoolClient) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: typeof query }).query = (...args) => {
        const config = args[0];
        texts.push(typeof config === 'string' ? config : (config as { text: string }).text);
        return query(...args);
      };
      return () => ((client as unknown as { query: typeof query }).query = query);
    };
    const unwatch: (() => void)[] = [];
    const onAcquire = (client: pg.PoolClient) => unwatch.push(watch(client));
    pool.on('acquire', onAcquire);
    let results;
    try {
      results = await writeEvents(svc.deps, batch);
    } finally {
      pool.off('acquire', onAcquire);
      for (const u of unwatch) u();
    }
    // (pg-boss's own timers may query its tables meanwhile: those statements are not the batch's.)
    const boss = bossSchemaFor(store.database.schema);
    const ours = texts.filter((t) => t.includes('inbound_events') || !t.includes(boss));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(/^WITH ev AS \(INSERT INTO inbound_events/);

    expect(results.map((r) => r.duplicate)).toEqual([false, false, false]);
    for (const [i, r] of results.entries()) {
      expect(await store.inbox.get(r.event.id)).toMatchObject({
        dedupeKey: batch[i]!.dedupeKey,
        status: 'received',
        payload: batch[i]!.payload,
        duplicates: 0,
      });
    }
    const jobs = await jobsSince(since);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data).toEqual({ eventIds: results.map((r) => r.event.id).sort((a, b) => a - b) });
    expect(jobs[0]!.held_for).toBe(0);

    // The same job through pg-boss's own send, with the options the transaction path passes it.
    const sentId = await svc.deps.queue.send(INBOUND_QUEUE, { eventIds: [1] }, processJobOptions(svc.deps.config));
    const sent = (await jobsSince(since)).find((j) => j.id === sentId)!;
    expect(comparable(jobs[0]!)).toEqual(comparable(sent));
    expect(jobs[0]).toMatchObject({
      state: 'created',
      retry_limit: 2,
      retry_delay: 0,
      retry_backoff: false,
      policy: 'standard',
    });
    await store.database.pool.query(`DELETE FROM ${jobTable()} WHERE id = $1`, [sentId]);
  });

  it('held events get a job each, starting holdSeconds later; the others share one', async () => {
    const since = await dbNow();
    const batch = [
      heldEvent({ holdSeconds: 30 }),
      heldEvent(),
      heldEvent({ holdSeconds: 45 }),
      heldEvent({ holdSeconds: 0 }),
    ];
    const results = await writeEvents(svc.deps, batch);
    const jobs = await jobsSince(since);
    expect(jobs).toHaveLength(3);
    const [a, b, c, d] = results.map((r) => r.event.id);
    const byData = new Map(jobs.map((j) => [JSON.stringify(j.data.eventIds), j]));
    expect(byData.get(JSON.stringify([b, d].sort((x, y) => x! - y!)))!.held_for).toBe(0);
    expect(byData.get(JSON.stringify([a]))!.held_for).toBe(30);
    expect(byData.get(JSON.stringify([c]))!.held_for).toBe(45);
    // Held or not, the same job otherwise (kept for as long from its start, same retries and lease).
    const shapes = jobs.map(comparable);
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
  });

  it('a key repeated in the batch is stored once, counted, and in the job once; a repeat of a stored event, and rejected or quarantined webhooks, get no job', async () => {
    const stored = heldEvent();
    await writeEvents(svc.deps, [stored]);
    const since = await dbNow();
    const twice = heldEvent({ holdSeconds: 20 });
    const batch: HeldEvent[] = [
      twice,
      { ...twice, at: new Date(Date.now() + 1000), holdSeconds: undefined },
      stored,
      heldEvent({ status: 'rejected', error: 'not JSON' }),
      heldEvent({ status: 'quarantined', quarantineReason: 'a line without a product' }),
      { ...twice },
    ];
    const results = await writeEvents(svc.deps, batch);
    expect(results.map((r) => r.duplicate)).toEqual([false, true, true, false, false, true]);
    expect(new Set([results[0], results[1], results[5]].map((r) => r!.event.id)).size).toBe(1);
    expect(await store.inbox.get(results[0]!.event.id)).toMatchObject({ duplicates: 2, status: 'received' });
    expect(await store.inbox.get(results[2]!.event.id)).toMatchObject({ duplicates: 1 });
    expect(results[3]!.event.status).toBe('rejected');
    expect(results[4]!.event.status).toBe('quarantined');
    // The repeated key's first webhook decides: it was held.
    const jobs = await jobsSince(since);
    expect(jobs.map((j) => [j.data.eventIds, j.held_for])).toEqual([[[results[0]!.event.id], 20]]);

    // A batch of repeats only: counted, and no job at all.
    const again = await dbNow();
    expect((await writeEvents(svc.deps, [stored, stored])).map((r) => r.duplicate)).toEqual([true, true]);
    expect(await jobsSince(again)).toEqual([]);
  });

  it('when the job cannot be written, no event is stored either', async () => {
    const doomed = 'ack-statement-doomed';
    await svc.deps.queue.createQueue(doomed);
    const jobs = await svc.deps.queue.jobsInStatement!(doomed, {});
    await (svc.deps.queue as PgBossQueue).boss.deleteQueue(doomed); // the queue and its partition of the job table are gone
    const lost = heldEvent();
    await expect(store.inbox.recordManyWithJobs!([lost], jobs)).rejects.toThrow();
    expect(await store.inbox.findByKey('acme', lost.dedupeKey)).toBeUndefined();
  });
});

describe('one-statement acknowledgement, processed end to end (postgres)', () => {
  let svc: TestService;
  const acme = testConnection('acme');

  beforeAll(async () => {
    svc = await startTestService({
      label: 'ack-statement-e2e',
      dialect: 'postgres',
      connections: [acme],
      env: PROCESSING_ENV,
      worker: true,
    });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('webhooks posted together (with repeats) are each processed once, into the feed', async () => {
    const payloads = Array.from({ length: 12 }, () => uniquePayload('reception-close', 'ACK'));
    const posts = [...payloads, ...payloads.slice(0, 4)].map((p) => postWebhook(svc.app, acme, 'reception-close', p));
    expect((await Promise.all(posts)).map((r) => r.status)).toEqual(Array(16).fill(200));
    const keys = payloads.map((p) => `reception-close:${p.closingDocumentCode as string}`);
    const events = await until(
      async () => {
        const found = await Promise.all(keys.map((k) => svc.deps.store.inbox.findByKey('acme', k)));
        return found.every((e) => e?.status === 'processed') ? found.map((e) => e!) : undefined;
      },
      { message: 'every webhook processed' },
    );
    expect(events.reduce((n, e) => n + e.duplicates, 0)).toBe(4);
    const res = await svc.app.request('/erp/v1/feed?after=0&limit=1000', {
      headers: { authorization: `Bearer ${acme.erpApiToken}` },
    });
    const page = (await res.json()) as FeedPage;
    for (const e of events) expect(page.entries.filter((f) => f.data.eventId === e.id)).toHaveLength(1);
    expect((await svc.deps.queue.counts(INBOUND_QUEUE)).failed).toBe(0);
  });
});
