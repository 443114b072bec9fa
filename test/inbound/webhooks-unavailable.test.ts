import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { postWebhook, uniquePayload } from './support.js';

describe('webhook routes when the database cannot be written', () => {
  let svc: TestService;
  const acme = testConnection('acme');

  beforeAll(async () => {
    svc = await startTestService({ label: 'wh-unavailable', connections: [acme] });
  });
  afterAll(async () => {
    await svc.close();
  });

  // spec: "Any non-2xx response is a failure": never acknowledge what was not stored.
  it('answers 503 without acknowledging, so the WMS marks the webhook failed; a bad payload is still a 400', async () => {
    expect((await postWebhook(svc.app, acme, 'reception-close', uniquePayload('reception-close'))).status).toBe(200);
    await svc.deps.store.close();
    const res = await postWebhook(svc.app, acme, 'reception-close', uniquePayload('reception-close'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      success: false,
      error: 'unavailable',
      message: expect.stringMatching(/not acknowledged/),
    });
    // A refusal needs no database: a close document without closingDocumentCode is still answered 400.
    const bad = await postWebhook(svc.app, acme, 'reception-close', { documentExternalCode: 'X' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, message: expect.stringContaining('closingDocumentCode') });
  });
});
