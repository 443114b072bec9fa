import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/types.js';

export function feedContract(label: string, open: () => Promise<{ store: Store; close: () => Promise<void> }>): void {
  describe(`feed contract: ${label}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    const at = new Date('2026-11-20T10:00:00.000Z');

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close();
    });

    describe('feed', () => {
      it('appends idempotently by key and pages by cursor in order, per connection', async () => {
        const first = await store.feed.append({
          connection: 'c9',
          type: 'reception.closed',
          dedupeKey: 'e1',
          data: { a: 1 },
          at,
        });
        const repeat = await store.feed.append({
          connection: 'c9',
          type: 'reception.closed',
          dedupeKey: 'e1',
          data: { a: 2 },
          at,
        });
        expect(first.created).toBe(true);
        expect(repeat).toMatchObject({ created: false, feedEntry: { id: first.feedEntry.id, data: { a: 1 } } });
        await store.feed.append({
          connection: 'other',
          type: 'stock.adjusted',
          dedupeKey: 'e1',
          data: {},
          at,
        });
        for (let i = 2; i <= 5; i++) {
          await store.feed.append({
            connection: 'c9',
            type: 'stock.adjusted',
            dedupeKey: `e${i}`,
            data: { i },
            at,
          });
        }
        const page1 = await store.feed.listAfter('c9', 0, 3);
        const page2 = await store.feed.listAfter('c9', page1.at(-1)!.id, 3);
        expect([...page1, ...page2].map((c) => c.dedupeKey)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
        expect(await store.feed.get('other', first.feedEntry.id)).toBeUndefined();
        expect((await store.feed.get('c9', first.feedEntry.id))?.createdAt.getTime()).toBe(at.getTime());
      });

      it('concurrent writers never leave a gap behind a reader’s cursor', async () => {
        // A reader polling with its cursor while 30 transactions append: if an id could become
        // visible after a higher one, the reader would move past it and never see it.
        const seen: number[] = [];
        let cursor = 0;
        let writing = true;
        const read = async () => {
          for (const c of await store.feed.listAfter('c10', cursor, 1000)) {
            seen.push(c.id);
            cursor = c.id;
          }
        };
        const reader = (async () => {
          while (writing) await read();
        })();
        await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            store.transaction(async (tx) => {
              await tx.feed.append({
                connection: 'c10',
                type: 'stock.adjusted',
                dedupeKey: `w${i}`,
                data: {},
                at,
              });
            }),
          ),
        );
        writing = false;
        await reader;
        await read();
        expect(seen).toHaveLength(30);
        expect(new Set(seen).size).toBe(30);
        expect([...seen].sort((a, b) => a - b)).toEqual(seen);
      });
    });
  });
}
