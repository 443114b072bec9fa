import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/errors.js';
import { createLogger } from '../../src/lib/logger.js';
import { captureOutput } from '../support/cli.js';
import { startTestService, type TestService } from '../support/service.js';

describe('service HTTP basics', () => {
  let svc: TestService;
  const logs = captureOutput();

  beforeAll(async () => {
    svc = await startTestService({
      label: 'http',
      env: { BODY_LIMIT_BYTES: '2048' },
      logger: createLogger({ level: 'debug', destination: logs.stream }),
    });
    // Routes that exist only in this test, to exercise the shared error handling.
    svc.app.post('/test/echo', async (c) => c.json(await c.req.json()));
    svc.app.get('/test/app-error', () => {
      throw new AppError(409, 'conflict', 'already there', { id: 1 });
    });
    svc.app.get('/test/crash', () => {
      throw new Error('secret internal detail');
    });
  });
  afterAll(() => svc.close());

  it('GET /healthz answers 200 while the process runs', async () => {
    const res = await svc.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 with each dependency checked', async () => {
    const res = await svc.app.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      checks: { store: 'ok', queue: 'ok', storage: 'ok', connections: 'ok' },
    });
  });

  it('puts a request id on every response, reusing a sane incoming one', async () => {
    const own = await svc.app.request('/healthz');
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await svc.app.request('/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
  });

  it('stamps the request id on log lines', async () => {
    logs.clear();
    await svc.app.request('/healthz', { headers: { 'x-request-id': 'log-me-42' } });
    svc.deps.logger.flush();
    expect(logs.text()).toContain('"reqId":"log-me-42"');
  });

  it('answers an unknown route with 404 in the common error shape', async () => {
    const res = await svc.app.request('/nope', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      success: false,
      error: 'not_found',
      message: 'No route for POST /nope',
      requestId: expect.any(String),
    });
  });

  it('refuses a body over the limit with 413 in the common shape', async () => {
    const res = await svc.app.request('/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blob: 'x'.repeat(4096) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      success: false,
      error: 'payload_too_large',
      message: 'Request body exceeds the limit of 2048 bytes',
    });
  });

  it('renders AppError with its status, code and details', async () => {
    const res = await svc.app.request('/test/app-error');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      success: false,
      error: 'conflict',
      message: 'already there',
      details: { id: 1 },
    });
  });

  it('hides unexpected errors behind a 500 without internals, and logs them', async () => {
    logs.clear();
    const res = await svc.app.request('/test/crash');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({
      success: false,
      error: 'internal_error',
      message: 'Internal server error',
    });
    expect(text).not.toContain('secret internal detail');
    svc.deps.logger.flush();
    expect(logs.text()).toContain('secret internal detail');
  });

  it('exposes Prometheus metrics', async () => {
    const res = await svc.app.request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toContain('wms_sync_process_cpu_user_seconds_total');
  });

  it('answers 503 from /readyz naming the store when it is closed, and healthz still 200', async () => {
    const other = await startTestService({ label: 'http-down' });
    await other.deps.store.close();
    const res = await other.app.request('/readyz');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: string; message: string; details: { checks: Record<string, string> } };
    expect(body.error).toBe('not_ready');
    expect(body.details.checks.store).toBe('failing');
    // which check failed, not why (the reason is for callers presenting ADMIN_TOKEN: test/app/exposure.test.ts)
    expect(body.message).toMatch(/^not ready: store\b/);
    expect((await other.app.request('/healthz')).status).toBe(200);
    await other.deps.queue.stop({ graceMs: 0 });
  });
});

describe('service API documentation', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ label: 'docs' });
  });
  afterAll(() => svc.close());

  it('serves an OpenAPI 3.1 document with the two security schemes', async () => {
    const res = await svc.app.request('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      info: { title: string };
      components: { securitySchemes: Record<string, { scheme: string }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('wms-sync');
    expect(doc.components.securitySchemes.erpBearer?.scheme).toBe('bearer');
    expect(doc.components.securitySchemes.webhookBasic?.scheme).toBe('basic');
  });

  it('every ERP route names the one erpBearer scheme, registered once with one description', async () => {
    const doc = (await (await svc.app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { securitySchemes: Record<string, { scheme: string; description?: string }> };
    };
    const erpOperations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/erp/v1/'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ route: `${method} ${path}`, security: op.security })),
      );
    expect(erpOperations.length).toBeGreaterThanOrEqual(10);
    for (const op of erpOperations) expect(op, op.route).toEqual({ route: op.route, security: [{ erpBearer: [] }] });
    expect(doc.components.securitySchemes.erpBearer).toEqual({
      type: 'http',
      scheme: 'bearer',
      description: "The connection's ERP_API_TOKEN; it selects the connection.",
    });
  });

  it('serves a reference page pointing at the document', async () => {
    const res = await svc.app.request('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/openapi.json');
  });

  it('loads the reference script from its own route, never from a CDN (the page works offline)', async () => {
    const html = await (await svc.app.request('/docs')).text();
    expect(html).toContain('<script src="/docs/reference.js">');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[^"']*\.js/);
    const script = await svc.app.request('/docs/reference.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
    const etag = script.headers.get('etag')!;
    expect((await svc.app.request('/docs/reference.js', { headers: { 'if-none-match': etag } })).status).toBe(304);
    const zipped = await svc.app.request('/docs/reference.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
  });
});
