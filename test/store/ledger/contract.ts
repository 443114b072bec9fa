import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/types.js';

export function ledgerContract(label: string, open: () => Promise<{ store: Store; close: () => Promise<void> }>): void {
  describe(`ledger contract: ${label}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    const at = new Date('2026-11-20T10:00:00.000Z');

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close();
    });

    describe('ledger', () => {
      it('records movements once per key and totals them per product and lot within a time range', async () => {
        const m = (dedupeKey: string, product: string, lot: string | null, quantity: number, minute: number) => ({
          connection: 'c11',
          productExternalCode: product,
          lotCode: lot,
          warehouse: null,
          quantity,
          movementTime: new Date(Date.UTC(2026, 10, 20, 10, minute)),
          source: 'test',
          dedupeKey,
          at,
        });
        expect(
          await store.ledger.record([m('a', 'P1', null, 10, 1), m('b', 'P1', null, -3, 2), m('c', 'P1', 'L1', 5, 3)]),
        ).toBe(3);
        expect(await store.ledger.record([m('a', 'P1', null, 10, 1), m('d', 'P2', '', 1.5, 4)])).toBe(1);
        const totals = await store.ledger.totals('c11', {});
        const byKey = Object.fromEntries(totals.map((t) => [`${t.productExternalCode}/${t.lotCode}`, t.quantity]));
        expect(byKey).toEqual({ 'P1/': 7, 'P1/L1': 5, 'P2/': 1.5 });
        const ranged = await store.ledger.totals('c11', {
          from: new Date(Date.UTC(2026, 10, 20, 10, 1)),
          to: new Date(Date.UTC(2026, 10, 20, 10, 3)),
        });
        expect(Object.fromEntries(ranged.map((t) => [`${t.productExternalCode}/${t.lotCode}`, t.quantity]))).toEqual({
          'P1/': -3,
          'P1/L1': 5,
        });
        expect(await store.ledger.list('c11', { productExternalCode: 'P1', limit: 10 })).toHaveLength(3);
        expect(await store.ledger.totals('nobody', {})).toEqual([]);
      });
    });
  });
}
