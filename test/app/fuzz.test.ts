import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../console/support.js';
import { basicAuth, startTestService, type TestService, testConnection } from '../support/service.js';

/**
 * Random requests on the webhook, ERP and admin routes (methods, paths, credentials, headers and
 * bodies), bounded in time so that it runs in every `npm test`: no answer is a 5xx, and the
 * process is still here at the end.
 */
describe('fuzz: webhook, ERP and admin routes', { timeout: 120_000 }, () => {
  let svc: TestService;
  const acme = testConnection('acme');
  beforeAll(async () => {
    svc = await startTestService({ label: 'fuzz', connections: [acme], env: { ADMIN_TOKEN } });
  });
  afterAll(() => svc.close());

  const segment = fc.oneof(
    fc.constantFrom('acme', 'nope', '1', '-1', '0', '99999999999999999999', 'reception-close', 'stock-regularization'),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
  );
  const path = fc.tuple(
    fc.constantFrom(
      '/webhooks/acme/reception-close',
      '/webhooks/acme/stock-regularization',
      '/webhooks',
      '/erp/v1/products',
      '/erp/v1/feed',
      '/erp/v1/documents',
      '/admin/v1/events',
      '/admin/v1/deliveries',
      '/admin/v1/connections/acme/pushes',
      '/admin/v1/reconciliations',
    ),
    fc.array(segment, { maxLength: 3 }),
    fc.option(fc.string({ maxLength: 30 }).map((q) => `?${encodeURIComponent(q)}=${encodeURIComponent(q)}`)),
  );
  const credentials = fc.constantFrom(
    undefined,
    `Bearer ${ADMIN_TOKEN}`,
    `Bearer ${acme.erpApiToken}`,
    basicAuth(acme.webhookCredentials[0]!.username, acme.webhookCredentials[0]!.password),
    'Bearer',
    'Basic ',
    'bAsIc   %%%',
  );
  const body = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.json({ maxDepth: 6 }),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ items: [v], closingDocumentCode: v })),
  );
  const contentType = fc.constantFrom(
    undefined,
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  );

  it('answers no 5xx to arbitrary methods, paths, credentials, headers and bodies', async () => {
    const seen: number[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        path,
        credentials,
        contentType,
        body,
        async (method, [base, segments, query], authorization, type, payload) => {
          const url = `${[base, ...segments].join('/')}${query ?? ''}`;
          const headers: Record<string, string> = {};
          if (authorization) headers.authorization = authorization;
          if (type) headers['content-type'] = type;
          const res = await svc.app.request(url, {
            method,
            headers,
            ...(method === 'GET' ? {} : { body: payload }),
          });
          seen.push(res.status);
          await res.body?.cancel();
          expect(res.status, `${method} ${url}`).toBeLessThan(500);
        },
      ),
      { numRuns: 2000, interruptAfterTimeLimit: 5000, markInterruptAsFailure: false },
    );
    expect(seen.length).toBeGreaterThan(20);
    expect(process.exitCode ?? 0).toBe(0);
  });
});
