import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/types.js';

/**
 * The inbox's operator side, on both adapters (store.sqlite.test.ts, store.pg.test.ts): list
 * filters and counts, quarantine, corrections beside the original, processing attempts.
 */
export function inboxRepairContract(
  label: string,
  open: () => Promise<{ store: Store; close: () => Promise<void> }>,
): void {
  describe(`store contract, inbox filters and repair: ${label}`, () => {
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

    it('filters lists, counts and ids by business code, statuses and the time received', async () => {
      const t = (m: number) => new Date(at.getTime() + m * 60_000);
      const codes = ['P-1', 'P-2', 'P-1'];
      const made = [];
      for (const [i, code] of codes.entries()) {
        made.push(
          (
            await store.inbox.record({
              connection: 'cf7',
              kind: 'stock-regularization',
              dedupeKey: key('f'),
              payload: '{}',
              businessCode: code,
              status: i === 1 ? 'quarantined' : 'received',
              quarantineReason: i === 1 ? 'quantity: missing' : null,
              at: t(i),
            })
          ).event,
        );
      }
      expect(made[1]).toMatchObject({
        status: 'quarantined',
        quarantineReason: 'quantity: missing',
        businessCode: 'P-2',
      });
      expect((await store.inbox.list({ connection: 'cf7', businessCode: 'P-1', limit: 10 })).map((e) => e.id)).toEqual([
        made[2]!.id,
        made[0]!.id,
      ]);
      expect(await store.inbox.count({ connection: 'cf7', businessCode: 'P-1' })).toBe(2);
      expect(await store.inbox.count({ connection: 'cf7', statuses: ['quarantined', 'failed'] })).toBe(1);
      expect(await store.inbox.count({ connection: 'cf7', receivedFrom: t(1), receivedTo: t(2) })).toBe(1);
      expect(await store.inbox.ids({ connection: 'cf7' }, 2)).toEqual([made[0]!.id, made[1]!.id]);
      expect(await store.inbox.quarantinedCounts()).toContainEqual({
        connection: 'cf7',
        kind: 'stock-regularization',
        n: 1,
      });
    });

    it('quarantines only a received event; corrections and attempts are kept in order; a processed event drops its reason', async () => {
      const { event } = await store.inbox.record({
        connection: 'cq8',
        kind: 'reception-close',
        dedupeKey: key('q'),
        payload: '{"a":1}',
        at,
      });
      expect(await store.inbox.markQuarantined(event.id, 'lines[0].externalCode: missing', at)).toBe(true);
      expect(await store.inbox.markQuarantined(event.id, 'again', at)).toBe(false);
      await store.inbox.recordAttemptOutcome({
        eventId: event.id,
        connection: 'cq8',
        outcome: 'quarantined',
        error: 'lines[0].externalCode: missing',
        at,
      });
      const edit = await store.transaction(async (tx) => {
        const added = await tx.inbox.addEdit({
          eventId: event.id,
          connection: 'cq8',
          actor: 'ana',
          payload: '{"a":2}',
          changes: [{ path: 'a', before: 1, after: 2 }],
          at,
        });
        await tx.inbox.addEdit({
          eventId: event.id,
          connection: 'cq8',
          actor: 'bo',
          payload: '{"a":3}',
          changes: [{ path: 'a', before: 2, after: 3 }],
          at,
        });
        expect(await tx.inbox.reopen(event.id, at)).toBe(true);
        return added;
      });
      expect(edit).toMatchObject({ eventId: event.id, actor: 'ana', changes: [{ path: 'a', before: 1, after: 2 }] });
      expect(await store.inbox.get(event.id)).toMatchObject({
        status: 'received',
        payload: '{"a":1}',
        correction: '{"a":3}',
      });
      expect((await store.inbox.editsOf(event.id)).map((e) => e.actor)).toEqual(['ana', 'bo']);
      await store.inbox.markProcessed(event.id, at);
      await store.inbox.recordAttemptOutcome({ eventId: event.id, connection: 'cq8', outcome: 'processed', at });
      expect(await store.inbox.get(event.id)).toMatchObject({ status: 'processed', quarantineReason: null });
      expect((await store.inbox.attemptsOf(event.id)).map((a) => [a.outcome, a.error])).toEqual([
        ['quarantined', 'lines[0].externalCode: missing'],
        ['processed', null],
      ]);
    });
  });
}
