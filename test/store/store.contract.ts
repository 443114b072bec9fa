import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';

/**
 * The store's own contract (migrations, transactions), run against both dialects beside each
 * repository's contract (test/store/<repo>/contract.ts) by store.sqlite.test.ts and
 * store.pg.test.ts: whatever the backend, these are the guarantees the rest of the service builds on.
 */
export function storeContract(label: string, open: () => Promise<{ store: Store; close: () => Promise<void> }>): void {
  describe(`store contract: ${label}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    const at = new Date('2026-11-20T10:00:00.000Z');
    let seq = 0;
    const key = (p: string) => `${p}-${++seq}`;

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close();
    });

    it('migrate can run again on a migrated database', async () => {
      await store.migrate();
      await store.ping();
    });

    describe('transactions', () => {
      it('commits everything written through tx together and runs afterCommit hooks', async () => {
        const dedupeKey = key('tx');
        let hooked = false;
        const id = await store.transaction(async (tx) => {
          const { event } = await tx.inbox.record({ connection: 'c5', kind: 'k', dedupeKey, payload: '{}', at });
          await tx.feed.append({ connection: 'c5', type: 'stock.adjusted', dedupeKey, data: { n: 1 }, at });
          tx.afterCommit(() => (hooked = true));
          expect(hooked).toBe(false);
          return event.id;
        });
        expect(hooked).toBe(true);
        expect(await store.inbox.get(id)).toBeDefined();
        expect(await store.feed.listAfter('c5', 0, 10)).toHaveLength(1);
      });

      it('rolls everything back when the function throws, and skips afterCommit', async () => {
        const dedupeKey = key('rollback');
        let hooked = false;
        await expect(
          store.transaction(async (tx) => {
            await tx.inbox.record({ connection: 'c6', kind: 'k', dedupeKey, payload: '{}', at });
            await tx.pushes.upsert({
              connection: 'c6',
              entity: 'product',
              externalCode: 'P',
              payload: {},
              payloadHash: 'h',
              at,
            });
            tx.afterCommit(() => (hooked = true));
            throw new Error('abort');
          }),
        ).rejects.toThrow('abort');
        expect(hooked).toBe(false);
        expect(await store.inbox.findByKey('c6', dedupeKey)).toBeUndefined();
        expect(await store.pushes.get('c6', 'product', 'P')).toBeUndefined();
      });

      it('concurrent transactions each see their own writes and all commit', async () => {
        const ids = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            store.transaction(async (tx) => {
              const { event } = await tx.inbox.record({
                connection: 'c7',
                kind: 'k',
                dedupeKey: key(`ctx${i}`),
                payload: '{}',
                at,
              });
              expect((await tx.inbox.get(event.id))?.id).toBe(event.id);
              return event.id;
            }),
          ),
        );
        expect(new Set(ids).size).toBe(10);
        expect(await store.inbox.list({ connection: 'c7', limit: 50 })).toHaveLength(10);
      });
    });
  });
}
