import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundMetrics } from '../../src/inbound/metrics.js';
import { type BatchOutcome, PROCESS_BATCH_MAX, processEvents } from '../../src/inbound/process-event.js';
import { createEventProcessor } from '../../src/inbound/processor.js';
import { systemClock } from '../../src/lib/clock.js';
import { createMetricsRegistry } from '../../src/lib/metrics.js';
import { createPgStore } from '../../src/store/pg/store.js';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/types.js';
import { createTestSchema } from '../support/pg.js';
import { tempDir } from '../support/tmp.js';
import { fixture } from './support.js';

/** A product whose ledger movement the database refuses (a trigger): one event's write fails. */
const POISON = 'POISON-PRODUCT';

interface Opened {
  store: Store;
  /** Makes the database refuse every ledger movement of the POISON product. */
  poison(): Promise<void>;
  close(): Promise<void>;
}

async function open(dialect: 'sqlite' | 'postgres'): Promise<Opened> {
  if (dialect === 'sqlite') {
    const tmp = tempDir('batch');
    const store = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
    await store.migrate();
    return {
      store,
      poison: async () =>
        void store.database.raw.exec(
          `CREATE TRIGGER poison BEFORE INSERT ON stock_ledger WHEN NEW.product_external_code = '${POISON}' BEGIN SELECT RAISE(ABORT, 'poisoned movement'); END`,
        ),
      close: async () => (await store.close(), tmp.remove()),
    };
  }
  const db = await createTestSchema('batch');
  const store = createPgStore({ url: db.url, schema: db.schema });
  await store.migrate();
  return {
    store,
    poison: async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query(`SET search_path = "${db.schema}"`);
      await client.query(`CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.product_external_code = '${POISON}' THEN RAISE EXCEPTION 'poisoned movement'; END IF; RETURN NEW; END $$`);
      await client.query(`CREATE TRIGGER poison BEFORE INSERT ON stock_ledger FOR EACH ROW EXECUTE FUNCTION poison()`);
      await client.end();
    },
    close: async () => (await store.close(), await db.drop()),
  };
}

/**
 * Processing several events per transaction (`processEvents`) gives each event the outcome it
 * would have alone: an event that fails, before or inside the transaction, fails alone and the
 * others are processed once; a batch interrupted before its commit leaves every event to be
 * processed again, exactly once; one interrupted after it adds nothing when it runs again.
 */
export function batchSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`processing in batches (${dialect})`, () => {
    let db: Opened;
    let store: Store;
    const metrics = inboundMetrics(createMetricsRegistry());
    const deps = () => ({ store, clock: systemClock, metrics });
    let seq = 0;

    beforeAll(async () => {
      db = await open(dialect);
      store = db.store;
      await db.poison();
    });
    afterAll(async () => {
      await db.close();
    });

    /** Stores receptions (as the receiver does) and returns their ids; `lines` replaces the fixture's. */
    const receive = async (count: number, lines?: unknown[]) => {
      const ids: number[] = [];
      for (let i = 0; i < count; i++) {
        const code = `B-${dialect}-${++seq}`;
        const payload = { ...fixture('reception-close'), closingDocumentCode: code, ...(lines ? { lines } : {}) };
        const { event } = await store.inbox.record({
          connection: 'acme',
          kind: 'reception-close',
          dedupeKey: `reception-close:${code}`,
          payload: JSON.stringify(payload),
          at: new Date(),
        });
        ids.push(event.id);
      }
      return ids;
    };
    const feedEntriesOf = async (id: number) => (await store.feed.bySourceEvent(id)).length;
    const movementsOf = async (id: number) =>
      (await store.ledger.list('acme', { limit: 100_000 })).filter((m) => m.sourceEventId === id).length;
    const statuses = (outcomes: BatchOutcome[]) => outcomes.map((o) => (o.ok ? o.result.status : 'error'));

    it('processes every event of a batch once: one feed entry and its movements each, in id order in the feed', async () => {
      const ids = await receive(10);
      const outcomes = await processEvents(deps(), ids);
      expect(outcomes.map((o) => o.eventId)).toEqual(ids);
      expect(statuses(outcomes)).toEqual(Array(10).fill('processed'));
      for (const id of ids) {
        expect(await feedEntriesOf(id)).toBe(1);
        expect(await movementsOf(id)).toBe(4);
        expect(await store.inbox.get(id)).toMatchObject({ status: 'processed', attempts: 1 });
        expect((await store.inbox.attemptsOf(id)).map((a) => a.outcome)).toEqual(['processed']);
      }
      // The feed's cursor order follows the events' order within the batch.
      const feed = await store.feed.listAfter('acme', 0, 1000);
      const order = feed.filter((c) => ids.includes(c.sourceEventId!)).map((c) => c.sourceEventId);
      expect(order).toEqual(ids);
    });

    it('tells the feed listeners of this process once the feed entries of a batch are committed (the ERP push starts at once), and not for a repeat', async () => {
      const ids = await receive(3);
      const heard: { connection: string; inFeed: number }[] = [];
      const unsubscribe = store.onFeedAppended((connection) => {
        // Heard after the commit: a reader outside the transaction already sees the rows.
        void store.feed
          .listAfter(connection, 0, 100_000)
          .then((feed) =>
            heard.push({ connection, inFeed: feed.filter((c) => ids.includes(c.sourceEventId!)).length }),
          );
      });
      try {
        await processEvents(deps(), ids);
        await expect.poll(() => heard.length).toBeGreaterThan(0);
        expect(heard.every((h) => h.connection === 'acme')).toBe(true);
        expect(heard[0]!.inFeed).toBe(3);
        const before = heard.length;
        await processEvents(deps(), ids);
        expect(heard.length).toBe(before);
      } finally {
        unsubscribe();
      }
    });

    it('an event refused by the database inside the transaction fails alone: the others are processed once, it stays to be retried', async () => {
      const good = await receive(5);
      const [bad] = await receive(1, [{ externalCode: POISON, quantity: 3 }]);
      const ids = [good[0]!, good[1]!, bad!, good[2]!, good[3]!, good[4]!];
      const outcomes = await processEvents(deps(), ids);
      expect(statuses(outcomes)).toEqual(['processed', 'processed', 'error', 'processed', 'processed', 'processed']);
      expect((outcomes[2] as { error: Error }).error.message).toMatch(/poisoned movement/);
      for (const id of good) {
        expect(await feedEntriesOf(id)).toBe(1);
        expect(await movementsOf(id)).toBe(4);
      }
      expect(await feedEntriesOf(bad!)).toBe(0);
      expect(await movementsOf(bad!)).toBe(0);
      // Not counted yet: the job records the failed attempt with its error (runProcessJob).
      expect(await store.inbox.get(bad!)).toMatchObject({ status: 'received', attempts: 0 });

      // The job's retry: the processed events are skipped (nothing doubled), the bad one fails again.
      const again = await processEvents(deps(), ids);
      expect(statuses(again)).toEqual(['skipped', 'skipped', 'error', 'skipped', 'skipped', 'skipped']);
      for (const id of good) {
        expect(await feedEntriesOf(id)).toBe(1);
        expect(await store.inbox.get(id)).toMatchObject({ attempts: 1 });
      }
      expect(await store.inbox.get(bad!)).toMatchObject({ status: 'received', attempts: 0 });
    });

    it('an event that cannot be read fails or is quarantined alone, before the transaction', async () => {
      const good = await receive(3);
      const [unreadable] = await receive(1, [{ quantity: 3 }]);
      const { event: unknown } = await store.inbox.record({
        connection: 'acme',
        kind: 'invoice-close',
        dedupeKey: `invoice-close:${++seq}`,
        payload: '{}',
        at: new Date(),
      });
      const outcomes = await processEvents(deps(), [good[0]!, unreadable!, unknown.id, good[1]!, good[2]!]);
      expect(statuses(outcomes)).toEqual(['processed', 'quarantined', 'error', 'processed', 'processed']);
      expect((outcomes[2] as { error: Error }).error.message).toMatch(/unknown event kind "invoice-close"/);
      expect(await store.inbox.get(unreadable!)).toMatchObject({ status: 'quarantined', attempts: 1 });
      for (const id of good) expect(await feedEntriesOf(id)).toBe(1);
    });

    it('a batch interrupted before its commit (a crash) leaves all its events to process, and its rerun processes each exactly once', async () => {
      const ids = await receive(8);
      const claimed = await store.processing.claim(ids);
      expect(claimed.map((e) => e.id)).toEqual(ids);
      // Everything of the batch written, then the process dies before COMMIT.
      await expect(
        store.transaction(async (tx) => {
          await tx.processing.complete(
            claimed.map((e) => ({
              eventId: e.id,
              connection: e.connection,
              movements: [],
              feedEntry: {
                connection: e.connection,
                type: 'reception.closed',
                dedupeKey: `inbound:${e.dedupeKey}`,
                sourceEventId: e.id,
                data: {},
                at: new Date(),
              },
            })),
            new Date(),
          );
          throw new Error('killed before the commit');
        }),
      ).rejects.toThrow(/killed/);
      for (const id of ids) expect(await store.inbox.get(id)).toMatchObject({ status: 'received' });
      expect(await feedEntriesOf(ids[0]!)).toBe(0);

      const outcomes = await processEvents(deps(), ids);
      expect(statuses(outcomes)).toEqual(Array(8).fill('processed'));
      for (const id of ids) {
        expect(await feedEntriesOf(id)).toBe(1);
        expect(await movementsOf(id)).toBe(4);
        // The interrupted attempt left nothing, its count included; the one that processed it counts.
        expect(await store.inbox.get(id)).toMatchObject({ status: 'processed', attempts: 1 });
      }
    });

    it('a batch sent again after its commit (the worker died before marking the job done) adds nothing, even reopened', async () => {
      const ids = await receive(6);
      const first = await processEvents(deps(), ids);
      // Reopened (an operator retry) and processed again: the same feed entries, no second movement.
      for (const id of ids) await store.inbox.reopen(id, new Date());
      const again = await processEvents(deps(), ids);
      expect(statuses(again)).toEqual(Array(6).fill('processed'));
      again.forEach((o, i) => {
        const before = first[i] as { result: { feedEntryId: number } };
        expect(o).toMatchObject({
          ok: true,
          result: { status: 'processed', created: false, feedEntryId: before.result.feedEntryId },
        });
      });
      for (const id of ids) {
        expect(await feedEntriesOf(id)).toBe(1);
        expect(await movementsOf(id)).toBe(4);
      }
    });

    it('jobs processed side by side (the worker processor) each get their own event outcomes; a failing event fails only itself', async () => {
      const processor = createEventProcessor(deps());
      const jobA = await receive(20);
      const [bad] = await receive(1, [{ externalCode: POISON, quantity: 1 }]);
      const jobB = [...(await receive(10)), bad!];
      const jobC = await receive(PROCESS_BATCH_MAX);
      const [a, b, c] = await Promise.all([processor(jobA), processor(jobB), processor(jobC)]);
      expect(a!.map((o) => o.eventId)).toEqual(jobA);
      expect(statuses(a!)).toEqual(Array(20).fill('processed'));
      expect(statuses(b!)).toEqual([...Array(10).fill('processed'), 'error']);
      expect(statuses(c!)).toEqual(Array(PROCESS_BATCH_MAX).fill('processed'));
      for (const id of [...jobA, ...jobB.slice(0, 10), ...jobC]) expect(await feedEntriesOf(id)).toBe(1);
      expect(await feedEntriesOf(bad!)).toBe(0);
    });

    it(`more events than one transaction takes (${PROCESS_BATCH_MAX}) are processed in several, each once; repeated and missing ids are answered`, async () => {
      const ids = await receive(PROCESS_BATCH_MAX + 7);
      const outcomes = await processEvents(deps(), [...ids, ids[0]!, 987_654_321]);
      expect(statuses(outcomes)).toEqual([...Array(ids.length + 1).fill('processed'), 'skipped']);
      expect(outcomes.at(-1)).toMatchObject({ ok: true, result: { status: 'skipped', reason: 'missing' } });
      for (const id of [ids[0]!, ids.at(-1)!]) expect(await feedEntriesOf(id)).toBe(1);
      const feed = await store.feed.listAfter('acme', 0, 10_000);
      expect(feed.filter((c) => ids.includes(c.sourceEventId!))).toHaveLength(ids.length);
    });
  });
}
