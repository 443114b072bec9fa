import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_STATES, type PushEntity, type PushState, type Store } from '../../../src/store/index.js';

/** The operators' read models, against both adapters (read-models.sqlite.test.ts, read-models.pg.test.ts). */
export function readModelsContract(
  label: string,
  open: () => Promise<{ store: Store; close: () => Promise<void> }>,
): void {
  describe(`read models contract: ${label}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    const at = new Date('2026-11-20T10:00:00.000Z');
    const minutes = (n: number) => new Date(at.getTime() + n * 60_000);

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close();
    });

    /** Records with these states, in this order (ids increase), for one connection and entity. */
    async function seedPushes(
      connection: string,
      entity: PushEntity,
      states: readonly PushState[],
    ): Promise<{ id: number; state: PushState }[]> {
      const base = { connection, entity, at };
      const results = await store.pushes.upsertMany(
        states.map((_, i) => ({
          ...base,
          externalCode: `${entity}-${i}`,
          payload: { i, big: 'x'.repeat(100) },
          payloadHash: `h${i}`,
        })),
      );
      const out = [];
      for (const [i, { record }] of results.entries()) {
        const state = states[i]!;
        if (state === 'synced') await store.pushes.markSynced(record.id, record.payloadHash, at);
        if (state === 'failed') await store.pushes.markFailed(record.id, { status: 400, message: 'refused' }, at);
        out.push({ id: record.id, state });
      }
      return out;
    }

    it('inboundCounts: events of the connection received since the instant, by kind and status', async () => {
      const event = (connection: string, kind: string, key: string, when: Date, status?: 'rejected') =>
        store.inbox.record({
          connection,
          kind,
          dedupeKey: key,
          payload: '{}',
          at: when,
          ...(status ? { status, error: 'bad' } : {}),
        });
      await event('in1', 'reception-close', 'old', minutes(-61));
      await event('in1', 'reception-close', 'a', minutes(-60));
      await event('in1', 'reception-close', 'b', minutes(-1));
      const processed = await event('in1', 'reception-close', 'c', minutes(-1));
      await store.inbox.markProcessed(processed.event.id, at);
      await event('in1', 'stock-regularization', 'd', minutes(0), 'rejected');
      await event('in2', 'reception-close', 'e', minutes(0));
      // A repeat counts once: the row, not the deliveries.
      await event('in1', 'reception-close', 'b', minutes(0));

      const counts = await store.readModels.inboundCounts('in1', minutes(-60));
      const sorted = [...counts].sort((x, y) => `${x.kind}${x.status}`.localeCompare(`${y.kind}${y.status}`));
      expect(sorted).toEqual([
        { kind: 'reception-close', status: 'processed', n: 1 },
        { kind: 'reception-close', status: 'received', n: 2 },
        { kind: 'stock-regularization', status: 'rejected', n: 1 },
      ]);
      expect(await store.readModels.inboundCounts('nobody', minutes(-60))).toEqual([]);
    });

    it('pushCounts: the connection’s records by entity and state', async () => {
      await seedPushes('oc1', 'product', ['pending', 'synced', 'synced', 'failed']);
      await seedPushes('oc1', 'document', ['failed']);
      await seedPushes('oc2', 'product', ['failed', 'failed']);
      const counts = await store.readModels.pushCounts('oc1');
      const sorted = [...counts].sort((x, y) => `${x.entity}${x.state}`.localeCompare(`${y.entity}${y.state}`));
      expect(sorted).toEqual([
        { entity: 'document', state: 'failed', n: 1 },
        { entity: 'product', state: 'failed', n: 1 },
        { entity: 'product', state: 'pending', n: 1 },
        { entity: 'product', state: 'synced', n: 2 },
      ]);
    });

    it('pushesPage: newest first, one entity and connection, without the payload', async () => {
      const seeded = await seedPushes('op1', 'delivery-point', ['pending', 'failed', 'synced']);
      await seedPushes('op1', 'product', ['failed']);
      await seedPushes('op2', 'delivery-point', ['failed']);
      const page = await store.readModels.pushesPage({ connection: 'op1', entity: 'delivery-point', limit: 10 });
      expect(page.map((r) => r.id)).toEqual(seeded.map((s) => s.id).reverse());
      expect(page[0]).not.toHaveProperty('payload');
      expect(page.find((r) => r.state === 'failed')).toMatchObject({
        entity: 'delivery-point',
        lastError: { status: 400, message: 'refused' },
        connection: 'op1',
      });
      const failed = await store.readModels.pushesPage({
        connection: 'op1',
        entity: 'delivery-point',
        state: 'failed',
        limit: 10,
      });
      expect(failed.map((r) => r.id)).toEqual([seeded[1]!.id]);
    });

    it('pushesPage: walking the keyset pages gives every matching record once, newest first (property)', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...PUSH_STATES), { maxLength: 25 }),
          fc.integer({ min: 1, max: 7 }),
          fc.option(fc.constantFrom(...PUSH_STATES), { nil: undefined }),
          async (states, limit, state) => {
            const connection = `prop-${++run}`;
            const seeded = await seedPushes(connection, 'product', states);
            const expected = seeded
              .filter((s) => !state || s.state === state)
              .map((s) => s.id)
              .reverse();
            const walked: number[] = [];
            let beforeId: number | undefined;
            for (;;) {
              const page = await store.readModels.pushesPage({
                connection,
                entity: 'product',
                limit,
                ...(state ? { state } : {}),
                ...(beforeId ? { beforeId } : {}),
              });
              expect(page.length).toBeLessThanOrEqual(limit);
              walked.push(...page.map((r) => r.id));
              if (page.length < limit) break;
              beforeId = page.at(-1)!.id;
            }
            expect(walked).toEqual(expected);
          },
        ),
        { numRuns: 25 },
      );
    });

    it('feedBefore: the connection’s feed entries newest first, below a cursor', async () => {
      const ids = [];
      for (let i = 0; i < 5; i++) {
        const { feedEntry } = await store.feed.append({
          connection: 'f1',
          type: 'stock.adjusted',
          dedupeKey: `f1-${i}`,
          data: { i },
          at,
        });
        ids.push(feedEntry.id);
        await store.feed.append({
          connection: 'f2',
          type: 'stock.adjusted',
          dedupeKey: `f2-${i}`,
          data: { i },
          at,
        });
      }
      expect((await store.readModels.feedBefore('f1', undefined, 3)).map((c) => c.id)).toEqual(ids.slice(2).reverse());
      const older = await store.readModels.feedBefore('f1', ids[2], 3);
      expect(older.map((c) => c.id)).toEqual([ids[1], ids[0]]);
      expect(older[0]).toMatchObject({ connection: 'f1', type: 'stock.adjusted', data: { i: 1 } });
      expect(await store.readModels.feedBefore('f3', undefined, 3)).toEqual([]);
    });
  });
}
