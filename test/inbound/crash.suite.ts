import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_QUEUE } from '../../src/inbound/queue.js';
import { loadConfig } from '../../src/lib/config.js';
import { openQueue, type Queue } from '../../src/queue/index.js';
import { type AnyStore, openStore } from '../../src/store/index.js';
import { createTestSchema } from '../support/pg.js';
import { basicAuth } from '../support/service.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';
import { type ChildService, spawnService } from './child-service.js';
import { fixture } from './support.js';

const CONNECTION = {
  CONNECTION_NAME: 'acme',
  WMS_BASE_URL: 'http://127.0.0.1:9',
  WMS_CLIENT_ID: 'client-acme',
  WMS_CLIENT_SECRET: 'secret',
  WEBHOOK_USERNAME: 'wms-acme',
  WEBHOOK_PASSWORD: 'crash-test-password',
  ERP_API_TOKEN: 'erp-token-of-the-crash-test',
};
const AUTH = basicAuth('wms-acme', 'crash-test-password');
const KINDS = ['reception-close', 'shipping-order-close'] as const;
const LINES = { 'reception-close': 4, 'shipping-order-close': 3 } as const;
/** The promise: after a restart, every acknowledged event processed within this. */
const RECOVERY_DEADLINE_MS = 30_000;

/**
 * `wms-sync serve` with its DEFAULT settings (lease, poll interval, retry delay, maintenance: none
 * shortened) is SIGKILLed while webhooks stream in and its worker is processing them; restarted on
 * the same database, every event that was answered 2xx is processed exactly once in effect (one
 * feed entry, one set of ledger movements) within 30 s of the restart. Webhooks not answered
 * may or may not be stored.
 */
export function crashSuite(dialect: 'sqlite' | 'postgres', settings: Record<string, string> = {}): void {
  const shape = Object.entries(settings)
    .map(([k, v]) => `, ${k}=${v}`)
    .join('');
  describe(`crash: SIGKILL while receiving and processing, default settings (${dialect}${shape})`, () => {
    const env: Record<string, string> = { ...CONNECTION, ...settings };
    const cleanups: (() => Promise<void> | void)[] = [];
    let child: ChildService | undefined;
    let store: AnyStore;
    let queue: Queue;

    beforeAll(async () => {
      if (dialect === 'sqlite') {
        const tmp = tempDir('crash');
        env.SQLITE_FILE = `${tmp.dir}/wms-sync.db`;
        cleanups.push(tmp.remove);
      } else {
        const db = await createTestSchema('crash');
        env.DATABASE_URL = db.url;
        env.DATABASE_SCHEMA = db.schema;
        cleanups.push(db.drop);
      }
    });
    afterAll(async () => {
      await child?.kill();
      await store?.close();
      for (const c of cleanups.reverse()) await c();
    });

    it('every acknowledged event is processed exactly once within 30 s of the restart', async () => {
      const acked = new Map<string, (typeof KINDS)[number]>();
      const sent: string[] = [];
      let n = 0;
      const post = async (url: string, code: string, kind: (typeof KINDS)[number]) => {
        const body = JSON.stringify({ ...fixture(kind), closingDocumentCode: code });
        const res = await fetch(`${url}/webhooks/acme/${kind}`, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
        return res.status;
      };
      const client = async (url: string, stopped: () => boolean) => {
        while (!stopped()) {
          n += 1;
          // One webhook in five repeats an earlier event, as the WMS's operators do.
          const code = n % 5 === 0 && sent.length > 0 ? sent[Math.floor(Math.random() * sent.length)]! : `CRASH-${n}`;
          const kind = KINDS[Number(code.split('-')[1]) % 2]!;
          if (!sent.includes(code)) sent.push(code);
          try {
            if ((await post(url, code, kind)) === 200) acked.set(code, kind);
          } catch {
            // Connection reset by the kill: not acknowledged, so no promise was made.
          }
        }
      };

      // A burst, and a kill while the worker holds jobs (those are the ones a lease must bring
      // back). The kill may land between two batches; then the burst and the kill are repeated.
      let heldByTheDead = 0;
      for (let round = 1; heldByTheDead === 0; round++) {
        expect(round, 'a kill that lands while jobs are being processed').toBeLessThanOrEqual(5);
        child = await spawnService(env);
        // The test's own view of the database (the queue only to count jobs; it never works them).
        store ??= openStore(loadConfig(env).database);
        queue ??= openQueue(store);
        let stop = false;
        const target = acked.size + 200;
        const clients = Array.from({ length: 48 }, () => client(child!.url, () => stop));
        await until(() => acked.size >= target, { timeoutMs: 30_000, message: '200 acknowledged webhooks' });
        await until(async () => (await queue.counts(INBOUND_QUEUE)).active > 0, {
          timeoutMs: 15_000,
          everyMs: 2,
          message: 'jobs being processed',
        });
        await child.kill();
        stop = true;
        await Promise.all(clients);
        heldByTheDead = (await queue.counts(INBOUND_QUEUE)).active;
      }
      const ackedBeforeKill = new Map(acked);

      const restartedAt = Date.now();
      child = await spawnService(env);
      const listeningMs = Date.now() - restartedAt;
      // Nothing is left to process, in time (nothing else arrives meanwhile: a light query to poll)…
      await until(async () => (await store.inbox.countByStatus()).received === 0, {
        timeoutMs: RECOVERY_DEADLINE_MS - (Date.now() - restartedAt),
        everyMs: 50,
        message: 'every stored event processed after the restart',
      });
      const recoveryMs = Date.now() - restartedAt;
      // …and the events answered 2xx before the kill are all there, processed.
      const processed = new Set(
        (await store.inbox.list({ connection: 'acme', status: 'processed', limit: 1_000_000 })).map((e) => e.dedupeKey),
      );
      expect([...ackedBeforeKill].filter(([code, kind]) => !processed.has(`${kind}:${code}`))).toEqual([]);
      console.info(
        `[crash ${dialect}] ${ackedBeforeKill.size} acknowledged, ${heldByTheDead} jobs held by the killed process; ` +
          `restart → listening ${listeningMs} ms, → last event processed ${recoveryMs} ms`,
      );
      expect(recoveryMs).toBeLessThan(RECOVERY_DEADLINE_MS);
      await until(async () => (await queue.counts(INBOUND_QUEUE)).active === 0, { message: 'no job left running' });

      // Sent again after the restart: acknowledged as repeats, nothing processed twice.
      for (const [code, kind] of [...ackedBeforeKill].slice(0, 20)) expect(await post(child.url, code, kind)).toBe(200);

      const feedEntries = await store.feed.listAfter('acme', 0, 100_000);
      const movements = await store.ledger.list('acme', { limit: 1_000_000 });
      const perCode = new Map<string, number>();
      for (const c of feedEntries)
        perCode.set(c.data.closingDocumentCode as string, (perCode.get(c.data.closingDocumentCode as string) ?? 0) + 1);
      // Exactly once for every event, acknowledged or not.
      expect([...perCode.values()].every((count) => count === 1)).toBe(true);
      for (const [code, kind] of ackedBeforeKill) {
        const event = (await store.inbox.findByKey('acme', `${kind}:${code}`))!;
        expect(perCode.get(code), code).toBe(1);
        expect(movements.filter((m) => m.sourceEventId === event.id)).toHaveLength(LINES[kind]);
      }
      const feed = await fetch(`${child.url}/erp/v1/feed?limit=1000`, {
        headers: { authorization: `Bearer ${CONNECTION.ERP_API_TOKEN}` },
      });
      expect(((await feed.json()) as { entries: unknown[] }).entries.length).toBe(Math.min(1000, feedEntries.length));
      await child.stop();
      child = undefined;
      // The test's deadlines are its own (30 s from the restart); vitest's only guards against a hang.
    }, 120_000);
  });
}
