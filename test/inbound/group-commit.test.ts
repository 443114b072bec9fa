import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/inbound/ack-writer.js';
import { type BatcherOptions, batcher } from '../../src/lib/batcher.js';
import { loadConfig } from '../../src/lib/config.js';
import { SqliteQueue } from '../../src/queue/sqlite/queue.js';
import { createSqliteStore, type SqliteStore } from '../../src/store/sqlite/store.js';
import type { NewInboundEvent } from '../../src/store/types.js';
import { tempDir } from '../support/tmp.js';

const config = loadConfig({ LOG_LEVEL: 'silent' });
/** The batcher as the receiver and the processor use it: a transaction per batch, failures isolated. */
const groupCommit = <I, R>({ commit, ...options }: BatcherOptions<I> & { commit: (items: I[]) => Promise<R[]> }) =>
  batcher(commit, { ...options, isolateFailures: true });
const at = new Date('2026-11-20T10:00:00Z');
let seq = 0;
const item = (tag = 'ok'): NewInboundEvent => ({
  connection: 'acme',
  kind: 'reception-close',
  dedupeKey: `reception-close:${tag}-${++seq}`,
  payload: `{"n":${seq}}`,
  at,
});
/** An item the database refuses (NOT NULL constraint): a real failure inside a real transaction. */
const poison = (): NewInboundEvent => ({ ...item('poison'), connection: null as unknown as string });

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

describe('group commit over a real SQLite store', () => {
  const tmp = tempDir('group-commit');
  const file = `${tmp.dir}/wms-sync.db`;
  let store: SqliteStore;
  let deps: { store: SqliteStore; queue: SqliteQueue; config: typeof config };

  beforeAll(async () => {
    store = createSqliteStore({ file });
    await store.migrate();
    deps = { store, queue: new SqliteQueue(store.database), config };
  });
  afterAll(async () => {
    await store.close();
    tmp.remove();
  });

  const stored = async (e: NewInboundEvent) => (await store.inbox.findByKey(e.connection, e.dedupeKey)) !== undefined;

  it('writes requests that arrive together in one transaction, and every acknowledged one survives a reopen of the file', async () => {
    const sizes: number[] = [];
    const writer = groupCommit({
      commit: (items: NewInboundEvent[]) => writeEvents(deps, items),
      maxBatch: 64,
      onBatch: (b) => sizes.push(b.size),
    });
    const items = Array.from({ length: 300 }, () => item());
    // Arrivals spread over several turns of the event loop, like requests on many sockets.
    const answers: Promise<unknown>[] = [];
    for (let i = 0; i < items.length; i += 30) {
      for (const it of items.slice(i, i + 30)) answers.push(writer.submit(it));
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(answers);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(Math.max(...sizes)).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64);

    const reopened = createSqliteStore({ file });
    try {
      // Every event, and a processing job naming it: one job per commit.
      const queued = new Set(
        reopened.database.raw
          .prepare<[], { data: string }>(`SELECT data FROM jobs WHERE name = 'inbound-events'`)
          .all()
          .flatMap((j) => (JSON.parse(j.data) as { eventIds: number[] }).eventIds),
      );
      for (const it of items) {
        const event = await reopened.inbox.findByKey('acme', it.dedupeKey);
        expect(event).toMatchObject({ payload: it.payload, status: 'received' });
        expect(queued.has(event!.id)).toBe(true);
      }
    } finally {
      await reopened.close();
    }
  });

  it('a failing batch fails only its own bad request: its neighbours are committed alone, later batches are untouched', async () => {
    const batches: { size: number; ok: boolean }[] = [];
    const writer = groupCommit({
      commit: (items: NewInboundEvent[]) => writeEvents(deps, items),
      maxBatch: 100,
      onBatch: (b) => batches.push(b),
    });
    const first = [item(), item(), poison(), item(), item()];
    const results = await Promise.all(first.map((it) => settle(writer.submit(it))));
    expect(results.map((r) => r.ok)).toEqual([true, true, false, true, true]);
    expect(String((results[2] as { error: unknown }).error)).toMatch(/NOT NULL/);
    for (const it of [first[0]!, first[1]!, first[3]!, first[4]!]) expect(await stored(it)).toBe(true);
    const later = [item(), item(), item()];
    expect((await Promise.all(later.map((it) => settle(writer.submit(it))))).every((r) => r.ok)).toBe(true);
    expect(batches[0]).toEqual(expect.objectContaining({ size: 5, ok: false }));
    expect(batches.at(-1)).toEqual(expect.objectContaining({ size: 3, ok: true }));
  });

  it('property: whatever the arrivals and bad requests, every good request is acknowledged and stored once, every bad one refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 8 }),
        async (turns, maxBatch) => {
          const sizes: number[] = [];
          const writer = groupCommit({
            commit: (items: NewInboundEvent[]) => writeEvents(deps, items),
            maxBatch,
            onBatch: (b) => sizes.push(b.size),
          });
          const sent: { it: NewInboundEvent; bad: boolean; answer: Promise<{ ok: boolean }> }[] = [];
          for (const turn of turns) {
            for (const bad of turn) {
              const it = bad ? poison() : item();
              sent.push({ it, bad, answer: settle(writer.submit(it)) });
            }
            await new Promise((r) => setImmediate(r));
          }
          for (const s of sent) {
            expect((await s.answer).ok).toBe(!s.bad);
            if (!s.bad) expect(await store.inbox.findByKey('acme', s.it.dedupeKey)).toMatchObject({ duplicates: 0 });
          }
          await writer.idle();
          expect(writer.pending).toBe(0);
          expect(Math.max(...sizes)).toBeLessThanOrEqual(maxBatch);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('group commit scheduling', () => {
  it('answers no request before its transaction has committed', async () => {
    const gate = deferred();
    const entered = deferred();
    const committed: number[][] = [];
    const writer = groupCommit<number, number>({
      commit: async (items) => {
        entered.resolve();
        await gate.promise;
        committed.push([...items]);
        return items.map((n) => n * 10);
      },
      maxBatch: 10,
    });
    let answered = false;
    const answer = writer.submit(1).then((r) => ((answered = true), r));
    // The transaction has begun and not committed; give any early answer a full turn to show.
    await entered.promise;
    await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    expect(writer.pending).toBe(1);
    gate.resolve();
    expect(await answer).toBe(10);
    expect(committed).toEqual([[1]]);
  });

  it('keeps at most maxInFlight transactions open and at most maxBatch items in each', async () => {
    let open = 0;
    let maxOpen = 0;
    const sizes: number[] = [];
    const writer = groupCommit<number, number>({
      commit: async (items) => {
        open += 1;
        maxOpen = Math.max(maxOpen, open);
        sizes.push(items.length);
        // Stay open across a turn of the event loop, as a real transaction does.
        await new Promise((r) => setImmediate(r));
        open -= 1;
        return [...items];
      },
      maxBatch: 7,
      maxInFlight: 3,
    });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => writer.submit(i)));
    expect(results).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(maxOpen).toBe(3);
    expect(Math.max(...sizes)).toBe(7);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('with maxBatch 1 every request has its own transaction', async () => {
    const sizes: number[] = [];
    const writer = groupCommit<number, number>({
      commit: async (items) => (sizes.push(items.length), [...items]),
      maxBatch: 1,
    });
    await Promise.all([1, 2, 3].map((n) => writer.submit(n)));
    expect(sizes).toEqual([1, 1, 1]);
  });

  it('a commit that returns the wrong number of results fails its requests instead of answering them wrongly', async () => {
    const writer = groupCommit<number, number>({ commit: async () => [], maxBatch: 10 });
    const results = await Promise.all([1, 2].map((n) => settle(writer.submit(n))));
    expect(results.every((r) => !r.ok)).toBe(true);
    await writer.idle();
  });
});
