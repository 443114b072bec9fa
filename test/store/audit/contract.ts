import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/types.js';

export function auditContract(label: string, open: () => Promise<{ store: Store; close: () => Promise<void> }>): void {
  describe(`audit repository: ${label}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close();
    });

    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 9, 0, 0));

    it('records entries and reads them back newest first, filtered and paged by id', async () => {
      const a = await store.audit.record({
        at: day(1),
        operator: 'alice',
        channel: 'console',
        action: 'event.override',
        connection: 'c1',
        target: 'event:7',
        outcome: 'ok',
        detail: 'Credit hold lifted by phone',
      });
      expect(a).toMatchObject({ operator: 'alice', channel: 'console', target: 'event:7', outcome: 'ok' });
      expect(a.at.toISOString()).toBe(day(1).toISOString());
      const b = await store.audit.record({
        at: day(2),
        operator: 'bob',
        channel: 'api',
        action: 'event.retry',
        connection: 'c1',
        target: 'event:7',
        outcome: 'refused',
      });
      await store.audit.record({ at: day(3), operator: 'bob', channel: 'cli', action: 'prune', outcome: 'ok' });
      const all = await store.audit.list({ limit: 10 });
      expect(all.map((e) => e.operator)).toEqual(['bob', 'bob', 'alice']);
      expect(all[0]).toMatchObject({ connection: null, target: null, detail: null });
      expect((await store.audit.list({ target: 'event:7', limit: 10 })).map((e) => e.id)).toEqual([b.id, a.id]);
      expect((await store.audit.list({ operator: 'alice', limit: 10 })).map((e) => e.id)).toEqual([a.id]);
      expect((await store.audit.list({ outcome: 'refused', limit: 10 })).map((e) => e.id)).toEqual([b.id]);
      expect((await store.audit.list({ action: 'event.override', connection: 'c1', limit: 10 })).length).toBe(1);
      expect((await store.audit.list({ from: day(2), to: day(3), limit: 10 })).map((e) => e.id)).toEqual([b.id]);
      const first = await store.audit.list({ limit: 1 });
      const next = await store.audit.list({ beforeId: first[0]!.id, limit: 1 });
      expect(next.map((e) => e.id)).toEqual([b.id]);
    });

    it('prunes entries older than the cutoff, and only counts them on a dry run', async () => {
      const before = (await store.audit.list({ limit: 100 })).length;
      expect(await store.audit.prune(day(2), true)).toBe(1);
      expect((await store.audit.list({ limit: 100 })).length).toBe(before);
      expect(await store.audit.prune(day(2), false)).toBe(1);
      expect((await store.audit.list({ limit: 100 })).map((e) => e.operator)).toEqual(['bob', 'bob']);
    });
  });
}
