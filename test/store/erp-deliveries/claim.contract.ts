import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const LEASE_MS = 60_000;
const KEYS = ['doc:A', 'doc:B', 'lot:P1|L1'] as const;

/** A delivery as the rule sees it (docs/erp-delivery.md, "Order"). */
interface Modelled {
  id: number;
  feedId: number;
  key: string;
  status: 'pending' | 'delivered' | 'dead';
  dueAt: number;
  leasedUntil: number | null;
}

type Op =
  | { op: 'enqueue'; keys: number[] }
  | { op: 'claim'; limit: number }
  | { op: 'probe' }
  | { op: 'finish'; outcomes: ('delivered' | 'dead' | 'retry')[]; retryInMs: number; probe: boolean }
  | { op: 'resend'; picks: number[] }
  | { op: 'wait'; ms: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant('enqueue' as const),
      keys: fc.array(fc.nat(KEYS.length - 1), { minLength: 1, maxLength: 4 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ op: fc.constant('claim' as const), limit: fc.integer({ min: 1, max: 4 }) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('probe' as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      op: fc.constant('finish' as const),
      outcomes: fc.array(fc.constantFrom('delivered' as const, 'dead' as const, 'retry' as const), {
        minLength: 1,
        maxLength: 4,
      }),
      retryInMs: fc.integer({ min: 0, max: 5_000 }),
      probe: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('resend' as const),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.constantFrom(0, 500, 2_000, LEASE_MS + 1) }),
    weight: 2,
  },
);

/**
 * What a claim may lease, from the rule alone, not from the SQL: pending, due, not leased (or its
 * lease ran out), and no earlier pending delivery of its key, leased or not; oldest due first.
 */
function claimable(model: Modelled[], now: number, dueOnly: boolean): Modelled[] {
  const firstOfKey = new Map<string, number>();
  for (const m of model)
    if (m.status === 'pending') firstOfKey.set(m.key, Math.min(firstOfKey.get(m.key) ?? Infinity, m.feedId));
  return model
    .filter(
      (m) =>
        m.status === 'pending' &&
        (!dueOnly || m.dueAt <= now) &&
        (m.leasedUntil === null || m.leasedUntil < now) &&
        firstOfKey.get(m.key) === m.feedId,
    )
    .sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
}

/**
 * The ERP delivery claim's contract, against both adapters (delivery-claim.sqlite.test.ts,
 * delivery-claim.pg.test.ts): whatever happened before (deliveries added, leased, delivered, dead,
 * retried later, re-sent, leases run out), a claim leases exactly what the order rule allows.
 * The adapters read only their keys' heads (a mark kept on every change); this is what proves the
 * marks never leave a key without its head, nor let a later delivery go first.
 */
/** What an opener gives: the store, and a way to wipe a connection's head marks as an older version's process would leave them. */
export interface DeliveryClaimSubject {
  store: Store;
  close: () => Promise<void>;
  clearMarks: (connection: string) => Promise<void>;
}

export function deliveryClaimContract(label: string, open: () => Promise<DeliveryClaimSubject>): void {
  describe(`ERP delivery claim contract: ${label}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let clearMarks: (connection: string) => Promise<void>;
    let seq = 0;

    beforeAll(async () => {
      ({ store, close, clearMarks } = await open());
    });
    afterAll(() => close());

    /** The marks as stored: for each connection and key with pending deliveries, exactly its lowest pending one; none elsewhere. */
    const expectMarks = async (connections: string[]) => {
      for (const connection of connections) {
        const rows = await store.erpDeliveries.list({ connection, limit: 10_000 });
        const first = new Map<string, number>();
        for (const r of rows)
          if (r.status === 'pending') first.set(r.orderKey, Math.min(first.get(r.orderKey) ?? Infinity, r.feedEntryId));
        const wrong = rows.filter(
          (r) => r.head !== (r.status === 'pending' && first.get(r.orderKey) === r.feedEntryId),
        );
        expect(wrong.map((r) => ({ id: r.id, key: r.orderKey, status: r.status, head: r.head }))).toEqual([]);
      }
    };

    it('a claim leases exactly the due heads of their keys, oldest first, after any history', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30 }), async (ops) => {
          const connection = `claim-${label}-${++seq}`;
          const owner = `owner-${seq}`;
          // Another connection with the same order keys and pending deliveries left as they are:
          // a key is a connection's, so nothing done to this run's connection may move its marks.
          const neighbour = `${connection}-neighbour`;
          await store.erpDeliveries.enqueue(
            neighbour,
            KEYS.map((orderKey, i) => ({
              connection: neighbour,
              feedEntryId: i + 1,
              type: 'reception.closed' as const,
              orderKey,
              feedAt: new Date(T0),
            })),
            KEYS.length,
            new Date(T0),
          );
          const model: Modelled[] = [];
          let now = T0;
          let feedId = 0;
          const at = () => new Date(now);
          const leased = () =>
            model.filter((m) => m.status === 'pending' && m.leasedUntil !== null && m.leasedUntil >= now);

          for (const step of ops) {
            if (step.op === 'enqueue') {
              const rows = step.keys.map((k) => ({
                connection,
                feedEntryId: ++feedId,
                type: 'reception.closed' as const,
                orderKey: KEYS[k]!,
                feedAt: at(),
              }));
              await store.erpDeliveries.enqueue(connection, rows, feedId, at());
              const ids = new Map(
                (await store.erpDeliveries.list({ connection, limit: 1_000 })).map((d) => [d.feedEntryId, d.id]),
              );
              for (const r of rows)
                model.push({
                  id: ids.get(r.feedEntryId)!,
                  feedId: r.feedEntryId,
                  key: r.orderKey,
                  status: 'pending',
                  dueAt: now,
                  leasedUntil: null,
                });
            } else if (step.op === 'claim' || step.op === 'probe') {
              const expected = claimable(model, now, step.op === 'claim').slice(
                0,
                step.op === 'claim' ? step.limit : 1,
              );
              const got =
                step.op === 'claim'
                  ? await store.erpDeliveries.claim({
                      connections: [connection],
                      owner,
                      now: at(),
                      leaseUntil: new Date(now + LEASE_MS),
                      limit: step.limit,
                    })
                  : [
                      await store.erpDeliveries.claimProbe({
                        connection,
                        owner,
                        now: at(),
                        leaseUntil: new Date(now + LEASE_MS),
                      }),
                    ].filter((c) => c !== undefined);
              expect(got.map((c) => c.delivery.id).sort((a, b) => a - b)).toEqual(
                expected.map((m) => m.id).sort((a, b) => a - b),
              );
              for (const m of expected) m.leasedUntil = now + LEASE_MS;
            } else if (step.op === 'finish') {
              const mine = leased().slice(0, step.outcomes.length);
              await store.erpDeliveries.finish(
                owner,
                mine.map((m, i) => {
                  const outcome = step.outcomes[i]!;
                  return {
                    id: m.id,
                    outcome,
                    status: outcome === 'delivered' ? 200 : 500,
                    latencyMs: 1,
                    response: null,
                    error: null,
                    probe: step.probe,
                    at: at(),
                    ...(outcome === 'retry' ? { nextAttemptAt: new Date(now + step.retryInMs) } : {}),
                  };
                }),
              );
              mine.forEach((m, i) => {
                const outcome = step.outcomes[i]!;
                m.leasedUntil = null;
                // A failed probe is recorded but keeps the delivery's schedule.
                if (outcome === 'retry') m.dueAt = step.probe ? m.dueAt : now + step.retryInMs;
                else m.status = outcome;
              });
            } else if (step.op === 'resend') {
              const done = model.filter((m) => m.status !== 'pending');
              if (done.length === 0) continue;
              const picked = [...new Set(step.picks.map((p) => done[p % done.length]!))];
              const ids = picked.map((m) => m.id).sort((a, b) => a - b);
              expect(
                await store.erpDeliveries.resend({ connection, ids }, at(), ids.length, ['dead', 'delivered']),
              ).toEqual(ids);
              for (const m of picked) Object.assign(m, { status: 'pending', dueAt: now, leasedUntil: null });
            } else {
              now += step.ms;
            }
            await expectMarks([connection, neighbour]);
          }
          // Drain: with time enough and every attempt delivered, every key empties, in feed order.
          const sent: Modelled[] = [];
          for (let round = 0; round < model.length + 2; round++) {
            now += LEASE_MS + 1;
            const got = await store.erpDeliveries.claim({
              connections: [connection],
              owner,
              now: at(),
              leaseUntil: new Date(now + LEASE_MS),
              limit: 10,
            });
            const expected = claimable(model, now, true).slice(0, 10);
            expect(got.map((c) => c.delivery.id).sort((a, b) => a - b)).toEqual(
              expected.map((m) => m.id).sort((a, b) => a - b),
            );
            if (got.length === 0) break;
            await store.erpDeliveries.finish(
              owner,
              expected.map((m) => ({
                id: m.id,
                outcome: 'delivered' as const,
                status: 200,
                latencyMs: 1,
                response: null,
                error: null,
                probe: false,
                at: at(),
              })),
            );
            for (const m of expected) Object.assign(m, { status: 'delivered', leasedUntil: null });
            sent.push(...expected);
          }
          expect(model.filter((m) => m.status === 'pending')).toEqual([]);
          for (const key of KEYS) {
            const ids = sent.filter((m) => m.key === key).map((m) => m.feedId);
            expect(ids).toEqual([...ids].sort((a, b) => a - b));
          }
        }),
        { numRuns: 40 },
      );
    });

    it('repairHeads marks the head of every key left without one, and only those', async () => {
      const connection = `repair-${label}-${++seq}`;
      const owner = `owner-${seq}`;
      const rows = ['doc:A', 'doc:A', 'doc:B', 'lot:P1|L1', 'doc:B'].map((orderKey, i) => ({
        connection,
        feedEntryId: i + 1,
        type: 'reception.closed' as const,
        orderKey,
        feedAt: new Date(T0),
      }));
      await store.erpDeliveries.enqueue(connection, rows, rows.length, new Date(T0));
      expect(await store.erpDeliveries.repairHeads()).toBe(0);
      // As a process from before the marks leaves them: added without a head, finished without moving it.
      await clearMarks(connection);
      const at = new Date(T0 + 1_000);
      expect(
        await store.erpDeliveries.claim({
          connections: [connection],
          owner,
          now: at,
          leaseUntil: new Date(T0 + 60_000),
          limit: 10,
        }),
      ).toEqual([]);

      expect(await store.erpDeliveries.repairHeads()).toBe(3);
      await expectMarks([connection]);
      const claimed = await store.erpDeliveries.claim({
        connections: [connection],
        owner,
        now: at,
        leaseUntil: new Date(T0 + 60_000),
        limit: 10,
      });
      expect(claimed.map((c) => c.delivery.feedEntryId).sort()).toEqual([1, 3, 4]);
      expect(await store.erpDeliveries.repairHeads()).toBe(0);
    });
  });
}
