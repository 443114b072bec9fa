import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectedKeyOf } from '../../src/inbound/dedupe.js';
import { ADMIN_TOKEN, get, signInAs } from '../console/support.js';
import { postWebhook, uniquePayload } from '../inbound/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';

/** A valid close document with one extra member nested `levels` deep, built as text (no recursion). */
function deepBody(levels: number): string {
  const text = JSON.stringify(uniquePayload('reception-close', 'DEEP'));
  return `${text.slice(0, -1)},"extra":${'{"x":'.repeat(levels)}1${'}'.repeat(levels)}}`;
}

/**
 * A refused body nested 5,000 deep is kept 30 days as a rejected event: reading it back (the admin
 * API's JSON, the console's page) must not recurse over it. `raw` carries it as received.
 */
export function deepEventSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`a stored body nested 5,000 deep is read back (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');
    beforeAll(async () => {
      svc = await startTestService({ label: `deep-${dialect}`, dialect, connections: [acme], env: { ADMIN_TOKEN } });
    });
    afterAll(() => svc.close());

    it('GET /admin/v1/events/{id} answers 200 with the raw text and no parsed value; the console page shows it', async () => {
      const body = deepBody(5000);
      expect((await postWebhook(svc.app, acme, 'reception-close', body)).status).toBe(400);
      const event = await svc.deps.store.inbox.findByKey('acme', rejectedKeyOf('reception-close', body));
      expect(event).toMatchObject({ status: 'rejected' });
      const res = await svc.app.request(`/admin/v1/events/${event!.id}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(res.status).toBe(200);
      const detail = (await res.json()) as { payload: { raw: string; parsed: unknown } };
      expect(detail.payload).toEqual({ raw: body, parsed: null });
      const op = await signInAs(svc);
      const page = await get(svc, `/console/connections/acme/events/${event!.id}`, op);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('{&quot;x&quot;:{&quot;x&quot;:');
    });
  });
}
