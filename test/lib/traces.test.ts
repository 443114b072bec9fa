import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validTraceparent } from '../../src/lib/tracing.js';
import { requestRun } from '../../src/reconcile/request.js';
import { authOf, uniquePayload } from '../inbound/support.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { startTestService, type TestService, type testConnection } from '../support/service.js';
import { until } from '../support/wait.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

/** A real HTTP server in the test: an OTLP/HTTP (JSON) trace receiver, or the ERP's webhook endpoint. */
async function httpSink(
  answer: (req: IncomingMessage, body: string) => void,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      answer(req, body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('traces of one reception, exported over OTLP/HTTP', () => {
  const spans: OtlpSpan[] = [];
  const erpCalls: { traceparent: string | undefined }[] = [];
  let collector: Awaited<ReturnType<typeof httpSink>>;
  let erp: Awaited<ReturnType<typeof httpSink>>;
  let svc: TestService;
  let acme: ReturnType<typeof testConnection>;
  let wms: RunningEmulator;

  beforeAll(async () => {
    collector = await httpSink((req, body) => {
      if (req.url !== '/v1/traces') return;
      const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const r of parsed.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
    });
    erp = await httpSink((req) => erpCalls.push({ traceparent: req.headers.traceparent as string | undefined }));
    wms = await startEmulator();
    acme = wmsConnection('acme', wms.url, await wms.tenant('acme'), {
      erpWebhookUrl: `${erp.url}/erp/webhooks`,
      erpWebhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
    });
    svc = await startTestService({
      label: 'traces',
      connections: [acme],
      worker: true,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        QUEUE_POLL_INTERVAL_MS: '50',
        ERP_WEBHOOK_POLL_MS: '50',
        RECONCILE_SETTLE_SECONDS: '1',
      },
    });
  });
  afterAll(async () => {
    await svc?.deps.tracing.shutdown();
    await svc?.close();
    await erp?.close();
    await collector?.close();
    await wms?.close();
  });

  it('webhook receipt → processing → feed entry → ERP delivery attempt, one trace continuing the caller’s, traceparent sent to the ERP', async () => {
    expect(svc.deps.tracing.enabled).toBe(true);
    // The WMS (or a proxy in front of us) traced its call: the reception's trace continues it.
    const callerTrace = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const res = await svc.app.request('/webhooks/acme/reception-close', {
      method: 'POST',
      headers: {
        authorization: authOf(acme),
        'content-type': 'application/json',
        traceparent: `00-${callerTrace}-${callerSpan}-01`,
      },
      body: JSON.stringify(uniquePayload('reception-close')),
    });
    expect(res.status).toBe(200);
    await until(() => erpCalls.length >= 1, { timeoutMs: 20_000, message: 'the ERP received the delivery' });
    await until(
      async () => {
        await svc.deps.tracing.flush();
        return spans.some((s) => s.name === 'erp.delivery');
      },
      { timeoutMs: 20_000, message: 'the spans reached the collector' },
    );

    const inTrace = spans.filter((s) => s.traceId === callerTrace);
    const byName = (name: string) => inTrace.find((s) => s.name === name);
    const receipt = byName('POST /webhooks/:connection/reception-close');
    const processing = byName('inbound.process');
    const feed = byName('feed.entry');
    const delivery = byName('erp.delivery');
    expect(receipt, 'receipt span').toBeDefined();
    expect(processing, 'processing span').toBeDefined();
    expect(feed, 'feed entry span').toBeDefined();
    expect(delivery, 'ERP delivery span').toBeDefined();
    expect(receipt!.parentSpanId).toBe(callerSpan);
    expect(receipt!.kind).toBe(2); // SERVER
    expect(processing!.parentSpanId).toBe(receipt!.spanId);
    expect(feed!.parentSpanId).toBe(processing!.spanId);
    expect(delivery!.parentSpanId).toBe(feed!.spanId);
    expect(delivery!.kind).toBe(3); // CLIENT
    // The ERP sees our attempt as the parent of whatever it does with the delivery.
    expect(erpCalls[0]!.traceparent).toBe(`00-${callerTrace}-${delivery!.spanId}-01`);
  });

  it('ERP intake → push job → each WMS call (the token request included), continuing the ERP’s trace across the queue', async () => {
    const erpTrace = randomBytes(16).toString('hex');
    const erpSpan = randomBytes(8).toString('hex');
    const code = `TRACED-${randomBytes(3).toString('hex')}`;
    const res = await svc.app.request(`/erp/v1/products/${code}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${acme.erpApiToken}`,
        'content-type': 'application/json',
        traceparent: `00-${erpTrace}-${erpSpan}-01`,
      },
      body: JSON.stringify({ externalCode: code, description: 'Traced product' }),
    });
    expect(res.status).toBeLessThan(300);
    await until(
      async () => {
        await svc.deps.tracing.flush();
        const names = spans.filter((s) => s.traceId === erpTrace).map((s) => s.name);
        return names.includes('wms.push') && names.includes('wms.token') && names.some((n) => n.startsWith('wms '));
      },
      { timeoutMs: 20_000, message: 'the push spans reached the collector' },
    );
    const inTrace = spans.filter((s) => s.traceId === erpTrace);
    const intake = inTrace.find((s) => s.name === 'PUT /erp/v1/products/:externalCode');
    const push = inTrace.find((s) => s.name === 'wms.push');
    const token = inTrace.find((s) => s.name === 'wms.token');
    const calls = inTrace.filter((s) => s.name.startsWith('wms ') && s.name !== 'wms.push');
    expect(intake?.parentSpanId).toBe(erpSpan);
    expect(push?.parentSpanId).toBe(intake!.spanId);
    expect(token?.parentSpanId).toBe(push!.spanId);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.parentSpanId).toBe(push!.spanId);
      expect(call.kind).toBe(3); // CLIENT
    }
  });

  it('a reconciliation run is a trace of its stock batches, each holding its WMS calls', async () => {
    const { run } = await requestRun(svc.deps, 'acme', 'api');
    await until(
      async () => {
        await svc.deps.tracing.flush();
        return spans.some((s) => s.name === 'reconcile.run');
      },
      { timeoutMs: 20_000, message: 'run span exported' },
    );
    const root = spans.find(
      (s) =>
        s.name === 'reconcile.run' &&
        s.attributes?.some((a) => a.key === 'wms_sync.run_id' && Number(a.value.intValue) === run.id),
    );
    expect(root).toBeDefined();
    expect(root!.parentSpanId ?? '').toBe('');
    const batches = spans.filter((s) => s.name === 'reconcile.batch' && s.parentSpanId === root!.spanId);
    expect(batches.length).toBeGreaterThan(0);
    const stockCalls = spans.filter(
      (s) => s.name.startsWith('wms ') && batches.some((b) => b.spanId === s.parentSpanId),
    );
    expect(stockCalls.length).toBeGreaterThan(0);
  });

  it('stores nothing but a well-formed traceparent (anything else starts a trace of our own)', () => {
    expect(validTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')).toBeDefined();
    for (const bad of [
      'garbage',
      '00-00000000000000000000000000000000-b7ad6b7169203331-01',
      '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01',
      '01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      '',
      null,
    ])
      expect(validTraceparent(bad), String(bad)).toBeUndefined();
  });
});
