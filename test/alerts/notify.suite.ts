import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertLoop } from '../../src/alerts/loop.js';
import { alertRouting, consoleBase } from '../../src/alerts/targets.js';
import { createPoster } from '../../src/erp/delivery/post.js';
import { ManualClock } from '../../src/lib/clock.js';
import type { ConnectionConfig } from '../../src/lib/connections.js';
import { postWebhook } from '../inbound/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';

const SECRET = `whsec_${Buffer.from('alerts-test-secret-0123456789abcdef').toString('base64')}`;
const WINDOW_MS = 300_000;

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; kind: string; connection: string | null; count: number; total: number; link: string };
}

/** The notifier: an HTTP server that keeps what it is sent, answering `status` (503 while "down"). */
async function startSink() {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (status < 300) received.push({ headers: req.headers, body, json: JSON.parse(body) as Received['json'] });
      res.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts`,
    received,
    setStatus: (s: number) => {
      status = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function notifySuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`notifications (${dialect})`, () => {
    let sink: Awaited<ReturnType<typeof startSink>>;
    let svc: TestService;
    let acme: ConnectionConfig;
    let loop: AlertLoop;
    const clock = new ManualClock(Date.parse('2026-03-01T08:00:00Z'));
    const poster = createPoster({ timeoutMs: 10_000, maxSockets: 4 });

    beforeAll(async () => {
      sink = await startSink();
      acme = testConnection('acme', { alertWebhookUrl: sink.url, alertWebhookFormat: 'json' });
      svc = await startTestService({
        label: `alerts_${dialect}`,
        dialect,
        connections: [acme],
        clock,
        env: { ALERT_WEBHOOK_SECRET: SECRET, ALERT_WINDOW_SECONDS: String(WINDOW_MS / 1000) },
      });
      // The loop the alert job runs, driven here pass by pass (no timer, the manual clock).
      const { deps } = svc;
      loop = new AlertLoop({
        store: deps.store,
        clock,
        logger: deps.logger,
        recorder: deps.alerts!,
        windowMs: WINDOW_MS,
        checkMs: 3_600_000,
        targetsOf: alertRouting(deps.config),
        baseUrl: consoleBase(deps.config),
        send: { poster, secret: SECRET, retryScheduleMs: [0, 1000, 1000] },
        stopping: new AbortController().signal,
      });
    });
    afterAll(async () => {
      poster.close();
      await svc?.close();
      await sink?.close();
    });

    const pass = async () => {
      await svc.deps.alerts!.flush();
      await loop.tick();
    };
    const of = (kind: string) => sink.received.filter((r) => r.json.kind === kind).map((r) => r.json);

    it('groups, throttles, retries while the notifier is down, and resolves', async () => {
      // Two webhooks processing cannot apply: acknowledged and quarantined (a regularization without its product).
      for (const quantity of [1, 2]) {
        const res = await postWebhook(svc.app, acme, 'stock-regularization', { quantity });
        expect(res.status).toBe(200);
      }
      await pass();
      expect(of('event_quarantined')).toEqual([
        expect.objectContaining({ type: 'alert.firing', connection: 'acme', count: 2, total: 2 }),
      ]);
      const first = sink.received[0]!;
      // Signed like ERP deliveries: Standard Webhooks headers, the signature as the scheme's own package computes it.
      const id = String(first.headers['webhook-id']);
      const seconds = Number(first.headers['webhook-timestamp']);
      expect(id).toMatch(/^alert_\d+$/);
      expect(seconds).toBe(Math.floor(clock.nowMs() / 1000));
      expect(first.headers['webhook-signature']).toBe(
        new Webhook(SECRET).sign(id, new Date(seconds * 1000), first.body),
      );
      expect(first.json.link).toMatch(/\/console\/connections\/acme\/events\?status=quarantined$/);

      // A third one inside the window: counted, not told yet.
      await postWebhook(svc.app, acme, 'stock-regularization', { quantity: 3 });
      await pass();
      expect(of('event_quarantined')).toHaveLength(1);

      // What the other rooms raise, as they raise it (a dead ERP delivery, a push failed for good, drift).
      svc.deps.alerts!.raise('acme', 'delivery_dead', 'feed entry 7 (reception.closed): HTTP 400');
      svc.deps.alerts!.raise('acme', 'push_failed', 'product OIL: Product SKU already exists');
      svc.deps.alerts!.raise('acme', 'reconcile_drift', 'run 3: 2 drifts in 40 rows');
      // The notifier is down: nothing is lost, the messages wait for their next attempt.
      sink.setStatus(503);
      await pass();
      expect(of('delivery_dead')).toHaveLength(0);
      const waiting = await svc.deps.store.alerts.messages(20);
      expect(waiting.filter((m) => m.state === 'pending' && m.attempts === 1)).toHaveLength(3);
      sink.setStatus(200);
      clock.advance(1000);
      await pass();
      for (const kind of ['delivery_dead', 'push_failed', 'reconcile_drift'])
        expect(of(kind)).toEqual([expect.objectContaining({ type: 'alert.firing', count: 1 })]);

      // A window later the quarantine tells its count since its last message.
      clock.advance(WINDOW_MS);
      await pass();
      expect(of('event_quarantined').map((m) => [m.type, m.count, m.total])).toEqual([
        ['alert.firing', 2, 2],
        ['alert.firing', 1, 3],
      ]);

      // Quiet for a whole window: each one resolves, once.
      clock.advance(WINDOW_MS);
      await pass();
      await pass();
      for (const kind of ['event_quarantined', 'delivery_dead', 'push_failed', 'reconcile_drift'])
        expect(of(kind).at(-1)).toEqual(expect.objectContaining({ type: 'alert.resolved' }));
      expect(of('event_quarantined').map((m) => m.type)).toEqual(['alert.firing', 'alert.firing', 'alert.resolved']);
      expect(of('delivery_dead').map((m) => m.type)).toEqual(['alert.firing', 'alert.resolved']);
    });

    it('a state (the ERP breaker) fires once and resolves only when cleared', async () => {
      svc.deps.alerts!.raise('acme', 'breaker_open', '10 failures in a row');
      await pass();
      expect(of('breaker_open').map((m) => m.type)).toEqual(['alert.firing']);
      clock.advance(WINDOW_MS * 3);
      await pass();
      expect(of('breaker_open').map((m) => m.type)).toEqual(['alert.firing']);
      svc.deps.alerts!.clear('acme', 'breaker_open');
      await pass();
      expect(of('breaker_open').map((m) => m.type)).toEqual(['alert.firing', 'alert.resolved']);
    });
  });
}
