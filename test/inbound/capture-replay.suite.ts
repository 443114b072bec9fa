import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportEvents } from '../../src/inbound/capture.js';
import { type Listening, listen } from '../../src/lib/listen.js';
import { runMain } from '../support/cli.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';
import { postWebhook } from './support.js';
import { VARIANTS } from './variants.suite.js';

/**
 * A day of a WMS's traffic (every variant the fixtures hold, canonical, varied and broken) received
 * by one service, exported with `wms-sync events export`, replayed with `wms-sync replay` into a
 * fresh service: the second holds the same events with the same outcomes and the same feed.
 */
export function captureReplaySuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`capture and replay (${dialect})`, () => {
    const tmp = tempDir(`capture-${dialect}`);
    const acme = testConnection('acme');
    const env = {
      LOG_LEVEL: 'silent',
      CONNECTION_NAME: 'acme',
      WMS_BASE_URL: 'http://127.0.0.1:9',
      WMS_CLIENT_ID: 'client-acme',
      WMS_CLIENT_SECRET: 'not-used-here',
      WEBHOOK_USERNAME: acme.webhookCredentials[0]!.username,
      WEBHOOK_PASSWORD: acme.webhookCredentials[0]!.password,
      ERP_API_TOKEN: acme.erpApiToken,
    };
    const services: { svc: TestService; http: Listening }[] = [];
    const start = async (label: string) => {
      const svc = await startTestService({
        label: `capture-${label}`,
        dialect,
        connections: [acme],
        env: { QUEUE_POLL_INTERVAL_MS: '50' },
        worker: true,
      });
      const http = await listen(svc.app.fetch, { port: 0, host: '127.0.0.1' });
      services.push({ svc, http });
      return { svc, http };
    };
    const settled = async (svc: TestService, total: number) => {
      await until(
        async () => {
          const counts = await svc.deps.store.inbox.countByStatus();
          return counts.received === 0 && Object.values(counts).reduce((a, b) => a + b, 0) === total;
        },
        { message: `${total} events stored and settled` },
      );
    };
    const outcome = async (svc: TestService) => {
      const events = await svc.deps.store.inbox.list({ limit: 1000 });
      const feed = await svc.deps.store.feed.listAfter('acme', 0, 1000);
      return {
        events: events.map((e) => `${e.kind} ${e.dedupeKey} ${e.status}`).sort(),
        // What a receipt adds (its event id and time) is the replaying service's own.
        feed: feed.map(({ type, data: { eventId, receivedAt, ...data } }) => JSON.stringify([type, data])).sort(),
      };
    };
    let source: { svc: TestService; http: Listening };
    let sent = 0;
    const capture = join(tmp.dir, 'day.jsonl');

    beforeAll(async () => {
      source = await start('source');
      for (const [, c] of VARIANTS) {
        const res = await postWebhook(source.svc.app, acme, c.kind, c.bodyText ?? JSON.stringify(c.body), {
          contentType: c.contentType === undefined ? 'application/json' : c.contentType,
        });
        await res.arrayBuffer();
        sent += 1;
      }
      const stored = Object.values(await source.svc.deps.store.inbox.countByStatus()).reduce((a, b) => a + b, 0);
      await settled(source.svc, stored);
      const lines: string[] = [];
      const result = await exportEvents(source.svc.deps.store, { connection: 'acme' }, (line) => void lines.push(line));
      expect(result).toEqual({ written: stored, pruned: 0 });
      writeFileSync(capture, lines.join(''));
    });
    afterAll(async () => {
      for (const { svc, http } of services) {
        await http.close(0);
        await svc.close();
      }
      tmp.remove();
    });

    it('a capture holds every stored event, oldest first, with its raw body byte for byte', async () => {
      const lines = readFileSync(capture, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.length).toBeGreaterThan(40);
      expect(lines.length).toBeLessThanOrEqual(sent);
      const ids = lines.map((l) => l.id as number);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      for (const line of lines) {
        const event = (await source.svc.deps.store.inbox.get(line.id))!;
        expect(line).toEqual({
          connection: 'acme',
          kind: event.kind,
          receivedAt: event.receivedAt.toISOString(),
          body: event.payload,
          id: event.id,
        });
        expect(JSON.stringify(line)).not.toContain(env.WEBHOOK_PASSWORD);
      }
    });

    it('replayed into a fresh service, it yields the same events, outcomes and feed entries', async () => {
      const target = await start('target');
      const total = readFileSync(capture, 'utf8').trim().split('\n').length;
      const { code, out, err } = await runMain(['replay', capture, '--to', target.http.url, '--rate', '200'], env);
      expect(err.split('\n').filter((l) => l && !/answered (400|415|422)/.test(l))).toEqual([]);
      expect(out).toContain(`done: ${total}/${total}`);
      expect(code).toBe(err === '' ? 0 : 1);
      await settled(target.svc, total);
      const expected = await outcome(source.svc);
      expect(expected.feed.length).toBeGreaterThan(20);
      expect(expected.events.some((e) => e.endsWith(' rejected'))).toBe(true);
      expect(await outcome(target.svc)).toEqual(expected);
    });

    it('at the recorded pace, and again as duplicates that process nothing more', async () => {
      const target = services[1]!;
      const before = await outcome(target.svc);
      const { out } = await runMain(
        ['replay', capture, '--to', target.http.url, '--pace', 'recorded', '--speed', '50'],
        env,
      );
      expect(out).toMatch(/done: \d+\/\d+/);
      expect(await outcome(target.svc)).toEqual(before);
    });

    it('a bad line refuses the whole capture before anything is sent; usage errors exit 2', async () => {
      const bad = join(tmp.dir, 'bad.jsonl');
      const good = readFileSync(capture, 'utf8').split('\n')[0]!;
      writeFileSync(
        bad,
        `${good}\n{"connection":"acme","kind":"invoice","receivedAt":"2026-11-27T08:00:00Z","body":"{}"}\n`,
      );
      const target = services[1]!;
      const before = (await target.svc.deps.store.inbox.get(JSON.parse(good).id))?.duplicates;
      const refused = await runMain(['replay', bad, '--to', target.http.url], env);
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/line 2: kind/);
      expect((await target.svc.deps.store.inbox.get(JSON.parse(good).id))?.duplicates).toBe(before);
      expect((await runMain(['replay', capture, '--to', target.http.url, '--rate', '0'], env)).code).toBe(2);
      expect((await runMain(['replay', capture, '--to', target.http.url, '--pace', 'fast'], env)).code).toBe(2);
      expect((await runMain(['replay', capture, '--to', target.http.url, '--speed', '2'], env)).code).toBe(2);
      expect((await runMain(['replay', capture, capture, '--to', target.http.url], env)).code).toBe(2);
    });

    it('an unreachable receiver stops the replay at once with exit 1', async () => {
      const { code, err } = await runMain(['replay', capture, '--to', 'http://127.0.0.1:9'], env);
      expect(code).toBe(1);
      expect(err).toMatch(/stopped after 0 of \d+: .* unreachable/);
    });
  });
}
