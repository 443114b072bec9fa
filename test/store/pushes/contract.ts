import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/types.js';

export function pushesContract(label: string, open: () => Promise<{ store: Store; close: () => Promise<void> }>): void {
  describe(`pushes contract: ${label}`, () => {
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

    describe('pushes', () => {
      it('create, unchanged, changed, synced, failed and retried', async () => {
        const base = { connection: 'c8', entity: 'product' as const, externalCode: key('P'), at };
        const created = await store.pushes.upsert({ ...base, payload: { d: 1 }, payloadHash: 'h1' });
        expect(created.changed).toBe(true);
        expect(created.record).toMatchObject({
          state: 'pending',
          payloadHash: 'h1',
          syncedHash: null,
          payload: { d: 1 },
        });
        expect((await store.pushes.upsert({ ...base, payload: { d: 1 }, payloadHash: 'h1' })).changed).toBe(false);

        await store.pushes.recordAttempt(created.record.id, at);
        await store.pushes.markSynced(created.record.id, 'h1', at);
        expect(await store.pushes.getById(created.record.id)).toMatchObject({
          state: 'synced',
          syncedHash: 'h1',
          attempts: 1,
        });
        expect((await store.pushes.upsert({ ...base, payload: { d: 1 }, payloadHash: 'h1' })).changed).toBe(false);

        const changed = await store.pushes.upsert({ ...base, payload: { d: 2 }, payloadHash: 'h2' });
        expect(changed).toMatchObject({
          changed: true,
          record: { state: 'pending', payloadHash: 'h2', syncedHash: 'h1' },
        });
        // A push of the older payload finishing late does not mark the newer one synced.
        await store.pushes.markSynced(created.record.id, 'h1', at);
        expect((await store.pushes.getById(created.record.id))?.state).toBe('pending');
        // Nor leaves it synced when an overlapping push (lease run out) synced it first: h1 may have
        // reached the WMS last, so h2 is to be pushed again.
        await store.pushes.markSynced(created.record.id, 'h2', at);
        await store.pushes.markSynced(created.record.id, 'h1', at);
        expect(await store.pushes.getById(created.record.id)).toMatchObject({
          state: 'pending',
          payloadHash: 'h2',
          syncedHash: 'h1',
        });

        await store.pushes.markFailed(created.record.id, { status: 400, message: 'Product SKU already exists' }, at);
        expect(await store.pushes.getById(created.record.id)).toMatchObject({
          state: 'failed',
          lastError: { status: 400, message: 'Product SKU already exists' },
        });
        // A failure of an older payload does not fail the newer one stored meanwhile.
        await store.pushes.upsert({ ...base, payload: { d: 3 }, payloadHash: 'h3' });
        await store.pushes.markFailed(created.record.id, { status: 400 }, at, 'h2');
        expect(await store.pushes.getById(created.record.id)).toMatchObject({ state: 'pending', payloadHash: 'h3' });
        await store.pushes.upsert({ ...base, payload: { d: 2 }, payloadHash: 'h2' });
        await store.pushes.markFailed(
          created.record.id,
          { status: 400, message: 'Product SKU already exists' },
          at,
          'h2',
        );
        expect((await store.pushes.getById(created.record.id))?.state).toBe('failed');
        // The same payload sent again after a failure is a retry: pending again.
        expect((await store.pushes.upsert({ ...base, payload: { d: 2 }, payloadHash: 'h2' })).changed).toBe(true);
        expect(await store.pushes.markPending(created.record.id, at)).toBe(true);
        const listed = await store.pushes.list({ connection: 'c8', state: 'pending', limit: 10 });
        expect(listed.map((r) => r.externalCode)).toContain(base.externalCode);
      });

      it('upsertMany: new, unchanged, changed and failed records in one call, results in input order', async () => {
        const up = (externalCode: string, d: number, entity: 'product' | 'document' = 'product') => ({
          connection: 'c13',
          entity,
          externalCode,
          payload: { d },
          payloadHash: `h${d}`,
          at,
        });
        const [same, changed, failed, fresh] = [key('S'), key('C'), key('F'), key('N')];
        await store.pushes.upsertMany([up(same, 1), up(changed, 1), up(failed, 1)]);
        const f = (await store.pushes.get('c13', 'product', failed))!;
        await store.pushes.markFailed(f.id, { status: 400 }, at);
        const results = await store.pushes.upsertMany([
          up(fresh, 1),
          up(same, 1),
          up(changed, 2),
          up(failed, 1),
          up(same, 1, 'document'),
        ]);
        expect(results.map((r) => [r.record.externalCode, r.record.entity, r.changed, r.record.state])).toEqual([
          [fresh, 'product', true, 'pending'],
          [same, 'product', false, 'pending'],
          [changed, 'product', true, 'pending'],
          [failed, 'product', true, 'pending'],
          [same, 'document', true, 'pending'],
        ]);
        expect(results[2]!.record.payload).toEqual({ d: 2 });
        expect((await store.pushes.get('c13', 'product', failed))?.lastError).toBeNull();
        expect(await store.pushes.upsertMany([])).toEqual([]);
        const many = Array.from({ length: 2100 }, (_, i) => up(key(`M${i}`), i));
        expect(
          (await store.pushes.upsertMany(many)).every(
            (r, i) => r.changed && r.record.externalCode === many[i]!.externalCode,
          ),
        ).toBe(true);
      });

      it('getMany finds the existing codes of one connection and entity, across IN-list chunks', async () => {
        const codes = Array.from({ length: 1203 }, (_, i) => key(`many${i}`));
        await store.transaction(async (tx) => {
          for (const code of codes)
            await tx.pushes.upsert({
              connection: 'c10',
              entity: 'product',
              externalCode: code,
              payload: {},
              payloadHash: 'h',
              at,
            });
        });
        await store.pushes.upsert({
          connection: 'c10b',
          entity: 'product',
          externalCode: codes[0]!,
          payload: {},
          payloadHash: 'h',
          at,
        });
        await store.pushes.upsert({
          connection: 'c10',
          entity: 'delivery-point',
          externalCode: codes[1]!,
          payload: {},
          payloadHash: 'h',
          at,
        });
        const found = await store.pushes.getMany('c10', 'product', [...codes, 'missing']);
        expect(found).toHaveLength(1203);
        expect(new Set(found.map((r) => r.connection))).toEqual(new Set(['c10']));
        expect(await store.pushes.getMany('c10', 'delivery-point', codes.slice(0, 3))).toHaveLength(1);
        expect(await store.pushes.getMany('c10', 'product', [])).toEqual([]);
        const counts = await store.pushes.summarize(found.map((r) => r.id));
        expect(counts).toEqual({ pending: 1203, synced: 0, failed: 0 });
      });

      it('noteError keeps the state; the push lease is held by one owner until released or expired', async () => {
        const { record } = await store.pushes.upsert({
          connection: 'c11',
          entity: 'product',
          externalCode: key('L'),
          payload: {},
          payloadHash: 'h',
          at,
        });
        await store.pushes.noteError(record.id, { status: 503 }, at);
        expect(await store.pushes.getById(record.id)).toMatchObject({ state: 'pending', lastError: { status: 503 } });

        const until = new Date(at.getTime() + 60_000);
        const claims = await Promise.all(
          ['a', 'b', 'c'].map((owner) => store.pushes.claim(record.id, owner, until, at)),
        );
        const winners = claims.filter((c) => c !== undefined);
        expect(winners).toHaveLength(1);
        const owner = winners[0]!.lockedBy!;
        expect(await store.pushes.claim(record.id, 'late', until, new Date(at.getTime() + 1_000))).toBeUndefined();
        // Another owner's release is ignored; the holder's frees it.
        await store.pushes.release(record.id, owner === 'a' ? 'b' : 'a');
        expect(await store.pushes.claim(record.id, 'late', until, at)).toBeUndefined();
        expect(await store.pushes.release(record.id, owner)).toMatchObject({
          id: record.id,
          lockedBy: null,
          lockedUntil: null,
        });
        expect(await store.pushes.claim(record.id, 'late', until, at)).toMatchObject({ lockedBy: 'late' });
        // A holder that died: its lease runs out and the next claim takes over.
        expect(await store.pushes.claim(record.id, 'next', until, new Date(until.getTime() + 1))).toMatchObject({
          lockedBy: 'next',
        });
        expect(await store.pushes.claim(999_999_999, 'x', until, at)).toBeUndefined();
      });

      it('markSynced with an owner: marks synced and frees the lease only for that owner, one record or many at once', async () => {
        const until = new Date(at.getTime() + 60_000);
        const codes = Array.from({ length: 21 }, (_, i) => key(`R${i}`));
        const up = (i: number, hash = `h${i}`) =>
          store.pushes.upsert({
            connection: 'c11c',
            entity: 'product',
            externalCode: codes[i]!,
            payload: { i },
            payloadHash: hash,
            at,
          });
        const { record } = await up(0);
        await store.pushes.claim(record.id, 'me', until, at);
        const after = await store.pushes.markSynced(record.id, 'h0', at, 'me');
        expect(after).toMatchObject({
          id: record.id,
          state: 'synced',
          syncedHash: 'h0',
          lastError: null,
          lockedBy: null,
          lockedUntil: null,
        });
        expect(await store.pushes.getById(record.id)).toEqual(after);
        expect(await store.pushes.claim(record.id, 'next', until, at)).toMatchObject({ lockedBy: 'next' });
        // Not the owner (its lease ran out and was taken): marked, the lease stays with its holder.
        await up(0, 'h0b');
        expect(await store.pushes.markSynced(record.id, 'h0b', at, 'me')).toMatchObject({
          state: 'synced',
          syncedHash: 'h0b',
          lockedBy: 'next',
        });
        // No owner (an operator's or a test's mark): the lease is left as it is.
        expect(await store.pushes.markSynced(record.id, 'h0b', at)).toMatchObject({
          state: 'synced',
          lockedBy: 'next',
        });
        // A newer payload stored during the push stays pending, and the lease is freed.
        await up(0, 'h0c');
        expect(await store.pushes.markSynced(record.id, 'h0b', at, 'next')).toMatchObject({
          state: 'pending',
          payloadHash: 'h0c',
          syncedHash: 'h0b',
          lockedBy: null,
        });
        expect(await store.pushes.markSynced(999_999_999, 'h', at, 'me')).toBeUndefined();

        // Many at once, in one turn (Postgres shares the statement): each row decided on its own.
        const records = await Promise.all(Array.from({ length: 20 }, (_, i) => up(i + 1)));
        const ids = records.map((r) => r.record.id);
        await Promise.all(ids.map((id, i) => store.pushes.claim(id, `o${i}`, until, at)));
        const done = await Promise.all(
          ids.map((id, i) =>
            store.pushes.markSynced(id, i === 7 ? 'stale' : `h${i + 1}`, at, i === 3 ? 'intruder' : `o${i}`),
          ),
        );
        expect(done.map((r) => r!.id)).toEqual(ids);
        expect(done.map((r) => r!.state)).toEqual(ids.map((_, i) => (i === 7 ? 'pending' : 'synced')));
        expect(done.map((r) => r!.lockedBy)).toEqual(ids.map((_, i) => (i === 3 ? 'o3' : null)));
        expect(await Promise.all(ids.map((id) => store.pushes.getById(id)))).toEqual(done);
      });

      it('pushes of many records at once (Postgres runs them as shared statements): each record decided on its own', async () => {
        const records = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            store.pushes.upsert({
              connection: 'c11b',
              entity: 'product',
              externalCode: key(`M${i}`),
              payload: {},
              payloadHash: `h${i}`,
              at,
            }),
          ),
        );
        const ids = records.map((r) => r.record.id);
        const codes = records.map((r) => r.record.externalCode);
        const until = new Date(at.getTime() + 60_000);
        // every record claimed once, a second owner of the first record refused, in the same turn
        const claims = await Promise.all([
          ...ids.map((id, i) => store.pushes.claim(id, `o${i}`, until, at)),
          store.pushes.claim(ids[0]!, 'other', until, at),
        ]);
        expect(claims.filter((c) => c !== undefined)).toHaveLength(30);
        expect(claims.slice(0, 30).filter((c) => c !== undefined).length + (claims[30] ? 1 : 0)).toBe(30);
        const owners = ids.map((_id, i) => (i === 0 && claims[30] ? 'other' : `o${i}`));
        expect(await Promise.all(ids.map((id) => store.pushes.recordAttempt(id, at)))).toEqual(ids.map(() => 1));
        // one record's attempts counted twice at once are two attempts
        expect(
          (
            await Promise.all([store.pushes.recordAttempt(ids[1]!, at), store.pushes.recordAttempt(ids[1]!, at)])
          ).sort(),
        ).toEqual([2, 3]);
        await store.pushes.setWaits(ids[29]!, 'c11b', [{ entity: 'product', externalCode: codes[3]! }], at);
        await Promise.all(
          ids.slice(0, 10).map((id, i) => store.pushes.markSynced(id, i === 9 ? 'stale' : `h${i}`, at)),
        );
        const waiters = await Promise.all(
          ids
            .slice(0, 10)
            .map((_, i) => store.pushes.hasWaiters('c11b', { entity: 'product', externalCode: codes[i]! })),
        );
        expect(waiters).toEqual(ids.slice(0, 10).map((_, i) => i === 3));
        // another owner's release is refused, the holder's frees it: all in one turn
        const released = await Promise.all([
          ...ids.map((id, i) => store.pushes.release(id, owners[i]!)),
          store.pushes.release(ids[5]!, 'nobody'),
        ]);
        for (const r of released.slice(0, 30)) expect(r).toMatchObject({ lockedBy: null, lockedUntil: null });
        // the refused release answers the record as it is (still held, or freed by its holder meanwhile)
        expect([null, owners[5]]).toContain(released[30]!.lockedBy);
        const after = await Promise.all(ids.slice(0, 11).map((id) => store.pushes.getById(id)));
        // a stale hash leaves the record pending (a newer payload waits)
        expect(after.map((r) => r!.state)).toEqual([
          ...Array.from({ length: 9 }, () => 'synced'),
          'pending',
          'pending',
        ]);
        expect(after[1]!.attempts).toBe(3);
        expect(await store.pushes.claim(ids[2]!, 'again', until, at)).toMatchObject({ lockedBy: 'again' });
        // documents' look-ups of their references at once, each answered with its own records
        const lookups = await Promise.all(
          [0, 1, 2].map((k) =>
            store.pushes.getMany('c11b', 'product', [codes[k]!, codes[k + 10]!, codes[k]!, 'missing']),
          ),
        );
        expect(lookups.map((rows) => rows.map((r) => r.externalCode).sort())).toEqual(
          [0, 1, 2].map((k) => [codes[k]!, codes[k + 10]!].sort()),
        );
        // waits cleared at once
        await Promise.all([
          store.pushes.setWaits(ids[29]!, 'c11b', [], at),
          store.pushes.setWaits(ids[28]!, 'c11b', [], at),
        ]);
        expect(await store.pushes.waitsOf(ids[29]!)).toEqual([]);
        expect(await store.pushes.hasWaiters('c11b', { entity: 'product', externalCode: codes[3]! })).toBe(false);
      });

      it('waits: set, replaced keeping their start, listed, and released per reference', async () => {
        const up = (code: string) =>
          store.pushes.upsert({
            connection: 'c12',
            entity: 'document',
            externalCode: code,
            payload: {},
            payloadHash: 'h',
            at,
          });
        const a = (await up(key('DA'))).record;
        const b = (await up(key('DB'))).record;
        const p1 = { entity: 'product' as const, externalCode: 'P1' };
        const p2 = { entity: 'product' as const, externalCode: 'P2' };
        const dp = { entity: 'delivery-point' as const, externalCode: 'P1' };
        const later = new Date(at.getTime() + 5_000);
        expect((await store.pushes.setWaits(a.id, 'c12', [p1, p2], at))?.getTime()).toBe(at.getTime());
        expect((await store.pushes.setWaits(a.id, 'c12', [p2, dp], later))?.getTime()).toBe(at.getTime());
        expect(await store.pushes.waitsOf(a.id)).toEqual([
          { ...p2, since: at },
          { ...dp, since: later },
        ]);
        await store.pushes.setWaits(b.id, 'c12', [p2], later);
        await store.pushes.setWaits(b.id, 'c12', [p2], later);
        expect(await store.pushes.releaseWaiters('other', p2)).toEqual([]);
        expect((await store.pushes.releaseWaiters('c12', p2)).sort()).toEqual([a.id, b.id].sort());
        expect(await store.pushes.releaseWaiters('c12', p2)).toEqual([]);
        expect(await store.pushes.waitsOf(a.id)).toEqual([{ ...dp, since: later }]);
        expect(await store.pushes.setWaits(a.id, 'c12', [], later)).toBeUndefined();
        expect(await store.pushes.waitsOf(a.id)).toEqual([]);
      });
    });
  });
}
