import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoHarness, type ErpFeedEntry } from '../../src/demo/harness.js';
import { type DemoStack, startDemoStack } from '../../src/demo/stack.js';
import { clientReturn, expedition, purchaseOrder, regularizations, scenarioCodes } from '../../src/demo/steps.js';
import { DEMO_TENANT } from '../../src/emulator/index.js';
import { loadConfig } from '../../src/lib/config.js';
import { silentLogger } from '../../src/lib/logger.js';
import { createTestSchema } from '../support/pg.js';
import { tempDir } from '../support/tmp.js';

const STEPS = [purchaseOrder, expedition, clientReturn, regularizations];

/**
 * The same warehouse work twice against the real service, through the emulator over HTTP: once
 * with the emulator writing its webhooks in the canonical form, once in the `varied` style (dates
 * as date-times, other offsets, omitted nulls, extra members, 480.0…). The ERP feed must hold
 * exactly the same feed entries, but for what must differ between two runs: ids, times, the
 * generated closing document and packing codes, and the runs' own codes (normalised to one tag).
 */
export function variedE2eSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`varied webhook style end to end: the feed holds what the canonical run holds (${dialect})`, () => {
    const tmp = tempDir('varied-e2e');
    let drop: (() => Promise<void>) | undefined;
    let stack: DemoStack;
    const lines: string[] = [];
    const run = Math.random().toString(36).slice(2, 7).toUpperCase();
    const tags = { canonical: `C${run}`, varied: `V${run}` };

    const harness = async () => {
      const h = new DemoHarness(
        {
          serviceUrl: stack.serviceUrl,
          emulatorUrl: stack.emulator.url,
          tenant: DEMO_TENANT,
          erpToken: stack.secrets.erpApiToken,
        },
        (l) => lines.push(l),
        25_000,
      );
      await h.skipExistingEvents();
      return h;
    };
    const feed = async () => {
      const res = await fetch(`${stack.serviceUrl}/erp/v1/feed?after=0&limit=1000`, {
        headers: { authorization: `Bearer ${stack.secrets.erpApiToken}` },
      });
      return ((await res.json()) as { entries: ErpFeedEntry[] }).entries;
    };
    /** A run's feed entries with what must differ between runs taken out. */
    const normalised = (events: ErpFeedEntry[], tag: string) =>
      events
        .filter((e) => JSON.stringify(e.data).includes(tag))
        .map((e) => {
          const { eventId: _e, receivedAt: _r, closingDocumentCode: _c, movementTime: _m, ...data } = e.data;
          // Packing barcodes are numbered by the emulator, like closing document codes.
          if (Array.isArray(data.packingList))
            data.packingList = (data.packingList as Record<string, unknown>[]).map(
              ({ packingCode: _p, ...pack }) => pack,
            );
          return JSON.parse(JSON.stringify({ type: e.type, data }).replaceAll(tag, 'RUN')) as unknown;
        });

    beforeAll(async () => {
      const env: Record<string, string> = {
        DATA_DIR: tmp.dir,
        PORT: '0',
        EMULATOR_PORT: '0',
        LOG_LEVEL: 'silent',
        QUEUE_POLL_INTERVAL_MS: '100',
      };
      if (dialect === 'postgres') {
        const db = await createTestSchema('varied_e2e');
        drop = db.drop;
        Object.assign(env, { DATABASE_URL: db.url, DATABASE_SCHEMA: db.schema });
      }
      stack = await startDemoStack(loadConfig(env), { logger: silentLogger(), emulatorInMemory: true });
    });
    afterAll(async () => {
      await stack?.close();
      await drop?.();
      tmp.remove();
    });

    it('runs receptions, a shipment, a return and regularizations with the emulator writing canonical webhooks', async () => {
      const h = await harness();
      for (const step of STEPS) await step(h, scenarioCodes(tags.canonical));
      expect(h.failures, lines.join('\n')).toEqual([]);
    });

    it('runs the same work again with the emulator writing varied webhooks (seed 42)', async () => {
      const style = await fetch(`${stack.emulator.url}/_emulator/tenants/${DEMO_TENANT}/webhook-style`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ style: 'varied', seed: 42 }),
      });
      expect(style.status).toBe(200);
      const h = await harness();
      for (const step of STEPS) await step(h, scenarioCodes(tags.varied));
      expect(h.failures, lines.join('\n')).toEqual([]);
    });

    it("the varied run was written otherwise, was read without a quarantine or a refusal, and its feed equals the canonical run's", async () => {
      const events = await stack.service.deps.store.inbox.list({ connection: 'demo', limit: 1000 });
      const ofRun = (tag: string) => events.filter((e) => e.payload.includes(tag));
      expect(
        ofRun(tags.varied).some((e) =>
          /"receptionDate":"\d{4}-\d\d-\d\dT|Meta"|Version"|"x-|\.0[,}\s]/.test(e.payload),
        ),
      ).toBe(true);
      expect(
        ofRun(tags.varied)
          .map((e) => e.status)
          .filter((s) => s !== 'processed'),
      ).toEqual([]);
      expect(
        ofRun(tags.canonical)
          .map((e) => e.status)
          .filter((s) => s !== 'processed'),
      ).toEqual([]);

      const all = await feed();
      const canonical = normalised(all, tags.canonical);
      expect(canonical.map((e) => (e as { type: string }).type)).toEqual([
        'reception.closed',
        'shipment.closed',
        'client_return.closed',
        'stock.adjusted',
      ]);
      expect(normalised(all, tags.varied)).toEqual(canonical);
      // Instants are the feed's one form, whatever offset the varied run wrote.
      for (const e of all.filter((x) => x.type === 'stock.adjusted'))
        expect(e.data.movementTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });
  });
}
