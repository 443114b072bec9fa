import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/types.js';

export function inboxContract(label: string, open: () => Promise<{ store: Store; close: () => Promise<void> }>): void {
  describe(`inbox contract: ${label}`, () => {
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

    describe('inbox', () => {
      it('stores a new event with its raw body byte for byte, and counts a repeat', async () => {
        const dedupeKey = key('CD');
        const payload = '{ "closingDocumentCode" : "CD-1",\n  "note": "café ✓" }';
        const first = await store.inbox.record({ connection: 'c1', kind: 'reception-close', dedupeKey, payload, at });
        expect(first.duplicate).toBe(false);
        expect(first.event).toMatchObject({ status: 'received', duplicates: 0, payload, attempts: 0 });
        const later = new Date(at.getTime() + 60_000);
        const again = await store.inbox.record({
          connection: 'c1',
          kind: 'reception-close',
          dedupeKey,
          payload: '{}',
          at: later,
        });
        expect(again.duplicate).toBe(true);
        expect(again.event.id).toBe(first.event.id);
        expect(again.event.duplicates).toBe(1);
        expect(again.event.lastDuplicateAt?.getTime()).toBe(later.getTime());
        expect(again.event.receivedAt.getTime()).toBe(at.getTime());
        // The first body is kept; a repeat never overwrites what was acknowledged.
        expect((await store.inbox.get(first.event.id))?.payload).toBe(payload);
      });

      it('50 concurrent deliveries of one key make one row and 49 duplicates', async () => {
        const dedupeKey = key('race');
        const results = await Promise.all(
          Array.from({ length: 50 }, () =>
            store.inbox.record({ connection: 'c1', kind: 'reception-close', dedupeKey, payload: '{}', at }),
          ),
        );
        expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
        expect(new Set(results.map((r) => r.event.id)).size).toBe(1);
        expect((await store.inbox.findByKey('c1', dedupeKey))?.duplicates).toBe(49);
      });

      it('recordMany gives the results of recording one after the other, repeats within the batch included', async () => {
        const [a, b, existing] = [key('many-a'), key('many-b'), key('many-x')];
        const before = await store.inbox.record({
          connection: 'c1',
          kind: 'k',
          dedupeKey: existing,
          payload: 'x0',
          at,
        });
        const later = new Date(at.getTime() + 1000);
        const results = await store.inbox.recordMany([
          { connection: 'c1', kind: 'k', dedupeKey: a, payload: 'a1', at },
          { connection: 'c1', kind: 'k', dedupeKey: existing, payload: 'x1', at },
          { connection: 'c1', kind: 'k', dedupeKey: a, payload: 'a2', at: later },
          { connection: 'c1', kind: 'k', dedupeKey: b, payload: 'b1', status: 'rejected', error: 'bad', at },
          { connection: 'c2', kind: 'k', dedupeKey: a, payload: 'other connection', at },
        ]);
        expect(results.map((r) => r.duplicate)).toEqual([false, true, true, false, false]);
        expect(results[0]!.event.id).toBe(results[2]!.event.id);
        expect(results[1]!.event.id).toBe(before.event.id);
        expect(results[4]!.event.id).not.toBe(results[0]!.event.id);
        expect(results[0]!.event).toEqual({ id: results[0]!.event.id, duplicates: 1, status: 'received' });
        expect(results[3]!.event).toEqual({ id: results[3]!.event.id, duplicates: 0, status: 'rejected' });
        expect(results[1]!.event).toEqual({ id: before.event.id, duplicates: 1, status: 'received' });
        const storedA = await store.inbox.findByKey('c1', a);
        expect(storedA).toMatchObject({ payload: 'a1', duplicates: 1 });
        expect(storedA?.lastDuplicateAt?.getTime()).toBe(later.getTime());
        expect(storedA?.receivedAt.getTime()).toBe(at.getTime());
        expect(await store.inbox.findByKey('c1', b)).toMatchObject({ payload: 'b1', status: 'rejected', error: 'bad' });
        expect(await store.inbox.findByKey('c1', existing)).toMatchObject({ payload: 'x0', duplicates: 1 });
        expect(await store.inbox.recordMany([])).toEqual([]);
      });

      it('concurrent recordMany batches over the same keys count every delivery once', async () => {
        const keys = [key('cm1'), key('cm2'), key('cm3')];
        const batch = () =>
          store.transaction((tx) =>
            tx.inbox.recordMany(
              keys.map((dedupeKey) => ({ connection: 'c1', kind: 'k', dedupeKey, payload: '{}', at })),
            ),
          );
        const all = (await Promise.all(Array.from({ length: 8 }, batch))).flat();
        expect(all.filter((r) => !r.duplicate)).toHaveLength(3);
        for (const k of keys) expect((await store.inbox.findByKey('c1', k))?.duplicates).toBe(7);
      });

      it('the same key on another connection is another event', async () => {
        const dedupeKey = key('iso');
        const a = await store.inbox.record({ connection: 'c1', kind: 'k', dedupeKey, payload: '{}', at });
        const b = await store.inbox.record({ connection: 'c2', kind: 'k', dedupeKey, payload: '{}', at });
        expect(b.duplicate).toBe(false);
        expect(b.event.id).not.toBe(a.event.id);
      });

      it('moves through attempts, failed, reopened and processed, and counts statuses', async () => {
        const { event } = await store.inbox.record({
          connection: 'c3',
          kind: 'k',
          dedupeKey: key('life'),
          payload: '{}',
          at,
        });
        expect(await store.inbox.recordAttempt(event.id, at)).toBe(1);
        expect(await store.inbox.recordAttempt(event.id, at)).toBe(2);
        // Each outcome of a processing attempt counts it too.
        await store.inbox.noteError(event.id, 'first try failed', at);
        expect(await store.inbox.get(event.id)).toMatchObject({
          status: 'received',
          error: 'first try failed',
          attempts: 3,
        });
        await store.inbox.markFailed(event.id, 'boom', at);
        expect(await store.inbox.get(event.id)).toMatchObject({ status: 'failed', error: 'boom', attempts: 4 });
        expect((await store.inbox.countByStatus()).failed).toBeGreaterThanOrEqual(1);
        expect(await store.inbox.reopen(event.id, at)).toBe(true);
        expect((await store.inbox.get(event.id))?.status).toBe('received');
        await store.inbox.markProcessed(event.id, new Date(at.getTime() + 5));
        const done = await store.inbox.get(event.id);
        expect(done).toMatchObject({ status: 'processed', error: null });
        expect(done?.processedAt?.getTime()).toBe(at.getTime() + 5);
        expect(await store.inbox.reopen(999_999_999, at)).toBe(false);
      });

      it('marks an event rejected_by_erp with the ERP message (from received, or again), never once processed; a retry reopens it', async () => {
        const { event } = await store.inbox.record({
          connection: 'c3',
          kind: 'reception-close',
          dedupeKey: key('erp'),
          payload: '{}',
          at,
        });
        expect(await store.inbox.markRejectedByErp(event.id, 'PO closed', at)).toBe(true);
        expect(await store.inbox.get(event.id)).toMatchObject({ status: 'rejected_by_erp', error: 'PO closed' });
        expect(await store.inbox.markRejectedByErp(event.id, 'PO still closed', at)).toBe(true);
        expect((await store.inbox.get(event.id))?.error).toBe('PO still closed');
        expect((await store.inbox.countByStatus()).rejected_by_erp).toBeGreaterThanOrEqual(1);
        expect(
          (await store.inbox.list({ connection: 'c3', status: 'rejected_by_erp', limit: 10 })).map((e) => e.id),
        ).toEqual([event.id]);
        expect(await store.inbox.reopen(event.id, at)).toBe(true);
        await store.inbox.markProcessed(event.id, at);
        expect(await store.inbox.markRejectedByErp(event.id, 'too late', at)).toBe(false);
        expect((await store.inbox.get(event.id))?.status).toBe('processed');
      });

      it('keeps rejected deliveries with their error, listed newest first with filters', async () => {
        const { event } = await store.inbox.record({
          connection: 'c4',
          kind: 'stock-regularization',
          dedupeKey: key('rej'),
          payload: 'not json',
          status: 'rejected',
          error: 'bad',
          at,
        });
        await store.inbox.record({
          connection: 'c4',
          kind: 'reception-close',
          dedupeKey: key('ok'),
          payload: '{}',
          at,
        });
        const rejected = await store.inbox.list({ connection: 'c4', status: 'rejected', limit: 10 });
        expect(rejected.map((e) => e.id)).toEqual([event.id]);
        expect(rejected[0]).toMatchObject({ error: 'bad', payload: 'not json' });
        const all = await store.inbox.list({ connection: 'c4', limit: 10 });
        expect(all).toHaveLength(2);
        expect(all[0]!.id).toBeGreaterThan(all[1]!.id);
        expect(await store.inbox.list({ connection: 'c4', beforeId: all[0]!.id, limit: 10 })).toHaveLength(1);
      });
    });
  });
}
