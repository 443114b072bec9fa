import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/commands/connections.js';
import { inboundJobs } from '../../src/inbound/jobs.js';
import { type ScriptedErp, startScriptedErp } from '../inbound/erp-receiver.js';
import { postWebhook, uniquePayload } from '../inbound/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { get, type Operator, post, signInAs } from './support.js';

const ALICE = 'alice-console-token-0123456789';
const BOB = 'bob-console-token-0123456789ab';

/**
 * An ERP refusal in the console, without a browser (plain forms, as with JavaScript off): Retry
 * asks the ERP again and leaves the refusal; the override is a confirmation page with a required
 * reason; the event page and the audit page keep who did what and why.
 */
describe('console: named operators, ERP refusals and the audit trail', () => {
  let svc: TestService;
  let erp: ScriptedErp;
  let alice: Operator;
  let bob: Operator;
  const conn = testConnection('acme', {
    erpWebhookUrl: 'http://127.0.0.1:9',
    erpWebhookSecret: newWebhookSecret(),
    erpCloseAck: 'sync',
  });
  let id = 0;
  const c = '/console/connections/acme';

  beforeAll(async () => {
    erp = await startScriptedErp();
    conn.erpWebhook = { ...conn.erpWebhook!, url: erp.url };
    svc = await startTestService({
      label: 'console-operators',
      env: {
        ADMIN_TOKENS: `alice:${ALICE},bob:${BOB}`,
        ERP_CLOSE_ACK_TIMEOUT_MS: '30000',
        QUEUE_POLL_INTERVAL_MS: '50',
      },
      connections: [conn],
      worker: [inboundJobs],
    });
    alice = await signInAs(svc, ALICE);
    bob = await signInAs(svc, BOB);
    erp.behave({ status: 200, body: JSON.stringify({ success: false, message: 'Customer <b>on credit hold</b>' }) });
    const payload = uniquePayload('reception-close', 'CONSOLE');
    await postWebhook(svc.app, conn, 'reception-close', payload);
    id = (await svc.deps.store.inbox.findByKey('acme', `reception-close:${payload.closingDocumentCode as string}`))!.id;
  });
  afterAll(async () => {
    await svc?.close();
    await erp?.close();
  });

  it('the event page says the ERP refused it (escaped) and offers "Ask the ERP again" and the override, not a plain retry', async () => {
    const page = await (await get(svc, `${c}/events/${id}`, alice)).text();
    expect(page).toContain('The ERP refused this document');
    expect(page).toContain('Customer &lt;b&gt;on credit hold&lt;/b&gt;');
    expect(page).toContain('Ask the ERP again');
    expect(page).toContain(`href="${c}/events/${id}/override"`);
    expect(page).not.toContain('Retry now');
  });

  it('Retry asks the ERP again: it still refuses, the event stays refused, the flash says so', async () => {
    const res = await post(svc, `${c}/events/${id}/retry`, alice);
    expect(res.status).toBe(303);
    expect((await svc.deps.store.inbox.get(id))!.status).toBe('rejected_by_erp');
    expect(erp.received.length).toBe(2);
  });

  it('the override page is a form with a required reason; without one nothing happens (400)', async () => {
    const form = await (await get(svc, `${c}/events/${id}/override`, bob)).text();
    expect(form).toMatch(/<textarea[^>]*name="reason"[^>]*required/);
    expect(form).toMatch(/Override the ERP(&#39;|')s refusal/);
    const empty = await post(svc, `${c}/events/${id}/override`, bob, { reason: '   ' });
    expect(empty.status).toBe(400);
    expect((await svc.deps.store.inbox.get(id))!.status).toBe('rejected_by_erp');
    // Without the session's CSRF token the cookie alone is refused.
    const forged = await post(svc, `${c}/events/${id}/override`, { ...bob, csrf: 'nope' }, { reason: 'x' });
    expect(forged.status).toBe(403);
  });

  it('the override with a reason processes it; the event page and the audit page keep the refusal, who and why', async () => {
    const res = await post(svc, `${c}/events/${id}/override`, bob, { reason: 'Credit hold lifted <by phone>' });
    expect(res.status).toBe(303);
    await until(async () => (await svc.deps.store.inbox.get(id))!.status === 'processed', { timeoutMs: 30_000 });
    const page = await (await get(svc, `${c}/events/${id}`, alice)).text();
    expect(page).toContain('ERP refusals and operator actions');
    expect(page).toContain('Customer &lt;b&gt;on credit hold&lt;/b&gt;');
    expect(page).toContain('Credit hold lifted &lt;by phone&gt;');
    expect(page).toMatch(/bob \(console\)/);
    expect(page).toMatch(/alice \(console\)/);
    // A second override: the event is no longer refused.
    expect((await post(svc, `${c}/events/${id}/override`, bob, { reason: 'again' })).status).toBe(409);

    const audit = await (await get(svc, `${c}/audit?operator=bob&action=event.override&outcome=ok`, alice)).text();
    expect(audit).toContain('Credit hold lifted &lt;by phone&gt;');
    expect(audit).toContain(`href="${c}/events/${id}"`);
    const entries = await svc.deps.store.audit.list({ target: `event:${id}`, limit: 10 });
    expect(entries.map((e) => [e.operator, e.action, e.outcome])).toEqual([
      ['bob', 'event.override', 'refused'],
      ['bob', 'event.override', 'ok'],
      ['bob', 'event.override', 'refused'],
      ['alice', 'event.retry', 'refused'],
    ]);
    expect((await get(svc, `${c}/audit?outcome=maybe`, alice)).status).toBe(400);
  });
});
