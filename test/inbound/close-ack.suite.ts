import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret as generateWebhookSecret } from '../../src/commands/connections.js';
import { CLOSE_DOCUMENT_RECEIVED } from '../../src/inbound/close-ack.js';
import { inboundJobs } from '../../src/inbound/jobs.js';
import { INBOUND_QUEUE } from '../../src/inbound/queue.js';
import type { ConnectionConfig } from '../../src/lib/connections.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { deadUrl, type ScriptedErp, startScriptedErp } from './erp-receiver.js';
import { CLOSE_KINDS, postWebhook, uniquePayload } from './support.js';

const ADMIN = 'admin-token-for-close-ack-tests';

interface EventShown {
  attempts: { outcome: string; error: string }[];
  operatorActions: { action: string; outcome: string; operator: string; detail: string | null }[];
}
const REFUSAL = 'Purchase order 4500012345 is already closed in the ERP; reopen it before receiving';

/**
 * ERP_CLOSE_ACK=sync against a real HTTP ERP. spec (Events, receiver obligations): "3. To reject a
 * close document, the receiver returns a body with `success` = false and `message` (string). The
 * service then marks the integration as failed and shows the message to the operator." With
 * "2. The receiver answers with a 2xx status to acknowledge" and "4. Any non-2xx response is a
 * failure": the refusal the WMS gets is a 200 whose body is `{success:false, message}`.
 */
export function closeAckSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`synchronous close acknowledgement (${dialect})`, () => {
    let svc: TestService;
    // A second service with a short budget, for the ERP that never answers: every other test has a
    // budget far above what the ERP needs, so a busy machine cannot turn a decision into a timeout.
    let short: TestService;
    let hangErp: ScriptedErp;
    let hang: ConnectionConfig;
    let erp: ScriptedErp;
    let sync: ConnectionConfig;
    let rotating: ConnectionConfig;
    let plain: ConnectionConfig;
    let down: ConnectionConfig;
    const secret = generateWebhookSecret();
    const previous = generateWebhookSecret();

    const serviceOf = (conn: ConnectionConfig) => (conn === hang ? short : svc);
    const eventOf = async (conn: ConnectionConfig, kind: string, code: unknown) =>
      (await serviceOf(conn).deps.store.inbox.findByKey(conn.name, `${kind}:${code as string}`))!;
    const processed = (conn: ConnectionConfig, kind: string, code: unknown) =>
      until(async () => (await eventOf(conn, kind, code)).status === 'processed', {
        timeoutMs: 30_000,
        message: `${code as string} processed`,
      });
    const admin = (path: string, init: RequestInit = {}) =>
      svc.app.request(path, { ...init, headers: { authorization: `Bearer ${ADMIN}` } });

    beforeAll(async () => {
      erp = await startScriptedErp();
      sync = testConnection('sync', { erpWebhookUrl: erp.url, erpWebhookSecret: secret, erpCloseAck: 'sync' });
      rotating = testConnection('rotating', {
        erpWebhookUrl: erp.url,
        erpWebhookSecret: secret,
        erpWebhookPreviousSecret: previous,
        erpCloseAck: 'sync',
      });
      plain = testConnection('plain', { erpWebhookUrl: erp.url, erpWebhookSecret: secret });
      down = testConnection('down', { erpWebhookUrl: await deadUrl(), erpWebhookSecret: secret, erpCloseAck: 'sync' });
      svc = await startTestService({
        label: 'close-ack',
        dialect,
        connections: [sync, rotating, plain, down],
        env: { ERP_CLOSE_ACK_TIMEOUT_MS: '30000', ADMIN_TOKEN: ADMIN },
        worker: [inboundJobs],
      });
      hangErp = await startScriptedErp();
      hangErp.behave('hang');
      hang = testConnection('hang', { erpWebhookUrl: hangErp.url, erpWebhookSecret: secret, erpCloseAck: 'sync' });
      // The hanging ERP costs each of its tests this long.
      short = await startTestService({
        label: 'close-ack-hang',
        dialect,
        connections: [hang],
        env: { ERP_CLOSE_ACK_TIMEOUT_MS: '300' },
        worker: [inboundJobs],
      });
    });
    afterAll(async () => {
      await svc?.close();
      await short?.close();
      await erp?.close();
      await hangErp?.close();
    });

    it('the ERP refuses a reception: the WMS gets exactly its {success:false, message}; the event is kept rejected_by_erp, not processed', async () => {
      erp.behave({ status: 200, body: JSON.stringify({ success: false, message: REFUSAL }) });
      const payload = uniquePayload('reception-close', 'REJ');
      const res = await postWebhook(svc.app, sync, 'reception-close', payload);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: false, message: REFUSAL });
      const event = await eventOf(sync, 'reception-close', payload.closingDocumentCode);
      expect(event).toMatchObject({ status: 'rejected_by_erp', error: REFUSAL, attempts: 0 });

      // Not processed: a document stored after it is processed, and it is still refused.
      erp.behave({ status: 200, body: '' });
      const later = uniquePayload('reception-close', 'AFTER');
      expect(await (await postWebhook(svc.app, sync, 'reception-close', later)).json()).toEqual({ success: true });
      await processed(sync, 'reception-close', later.closingDocumentCode);
      expect((await eventOf(sync, 'reception-close', payload.closingDocumentCode)).status).toBe('rejected_by_erp');
      expect(await svc.deps.store.feed.bySourceEvent(event.id)).toEqual([]);

      // Visible to operators: the admin list and show, and the metrics.
      const list = await admin('/admin/v1/events?status=rejected_by_erp&connection=sync');
      expect(list.status).toBe(200);
      expect(JSON.stringify(await list.json())).toContain(String(payload.closingDocumentCode));
      const shown = await (await admin(`/admin/v1/events/${event.id}`)).json();
      expect(JSON.stringify(shown)).toContain(REFUSAL);
      const metrics = await (await svc.app.request('/metrics')).text();
      expect(metrics).toMatch(/wms_sync_inbound_events\{status="rejected_by_erp"\} [1-9]/);
      expect(metrics).toMatch(/wms_sync_erp_close_ack_total\{connection="sync",outcome="rejected"\} [1-9]/);

      // An operator's retry asks the ERP again: it accepts now, so the document is processed.
      const retry = await admin(`/admin/v1/events/${event.id}/retry`, { method: 'POST' });
      expect(retry.status).toBe(202);
      expect(((await retry.json()) as { erp: unknown }).erp).toEqual({ decision: 'accepted' });
      await processed(sync, 'reception-close', payload.closingDocumentCode);
    });

    it('Retry asks the ERP again and leaves the refusal while the ERP says no; Override processes it, with its reason in the audit trail', async () => {
      erp.behave({ status: 200, body: JSON.stringify({ success: false, message: 'on credit hold' }) });
      const payload = uniquePayload('reception-close', 'HOLD');
      await postWebhook(svc.app, sync, 'reception-close', payload);
      const event = await eventOf(sync, 'reception-close', payload.closingDocumentCode);
      expect(event.status).toBe('rejected_by_erp');

      // Asked again: the same question (a new message id), signed, and the ERP refuses again.
      erp.behave({ status: 200, body: JSON.stringify({ success: false, message: 'still on credit hold' }) });
      const before = erp.received.length;
      const retry = await admin(`/admin/v1/events/${event.id}/retry`, { method: 'POST' });
      expect(retry.status).toBe(200);
      const answer = (await retry.json()) as { erp: unknown; event: unknown };
      expect(answer.erp).toEqual({ decision: 'rejected', message: 'still on credit hold' });
      expect(answer.event).toMatchObject({ status: 'rejected_by_erp', error: 'still on credit hold' });
      expect(erp.received.length).toBe(before + 1);
      const asked = erp.received.at(-1)!;
      expect(JSON.parse(asked.body)).toMatchObject({ type: CLOSE_DOCUMENT_RECEIVED, eventId: event.id });
      new Webhook(secret).verify(asked.body, asked.headers as Record<string, string>);
      expect(asked.headers['webhook-id']).toMatch(new RegExp(`^close_${event.id}_retry_\\d+$`));
      expect((await eventOf(sync, 'reception-close', payload.closingDocumentCode)).status).toBe('rejected_by_erp');
      expect(await svc.deps.store.feed.bySourceEvent(event.id)).toEqual([]);

      // The override is its own call: a reason is required; then the document is processed.
      const json = { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` };
      const noReason = await svc.app.request(`/admin/v1/events/${event.id}/override`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ reason: '  ' }),
      });
      expect(noReason.status).toBe(400);
      expect((await eventOf(sync, 'reception-close', payload.closingDocumentCode)).status).toBe('rejected_by_erp');
      const override = await svc.app.request(`/admin/v1/events/${event.id}/override`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ reason: 'Credit hold lifted by phone with the ERP team' }),
      });
      expect(override.status).toBe(202);
      await processed(sync, 'reception-close', payload.closingDocumentCode);
      expect((await svc.deps.store.feed.bySourceEvent(event.id)).length).toBe(1);
      const again = await svc.app.request(`/admin/v1/events/${event.id}/override`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ reason: 'twice' }),
      });
      expect(again.status).toBe(409);

      // The event keeps both refusals, the override and its reason, after it is processed.
      const shown = (await (await admin(`/admin/v1/events/${event.id}`)).json()) as EventShown;
      expect(
        shown.attempts
          .filter((a: { outcome: string }) => a.outcome === 'rejected_by_erp')
          .map((a: { error: string }) => a.error),
      ).toEqual(['on credit hold', 'still on credit hold']);
      expect(
        shown.operatorActions.map((a: { action: string; outcome: string; operator: string }) => [
          a.action,
          a.outcome,
          a.operator,
        ]),
      ).toEqual([
        ['event.override', 'refused', 'admin'],
        ['event.override', 'ok', 'admin'],
        ['event.override', 'refused', 'admin'],
        ['event.retry', 'refused', 'admin'],
      ]);
      expect(shown.operatorActions[1]?.detail).toBe('Credit hold lifted by phone with the ERP team');
      const audit = (await (
        await admin(`/admin/v1/audit?target=event:${event.id}&action=event.override&outcome=ok`)
      ).json()) as { entries: unknown[] };
      expect(audit.entries).toHaveLength(1);
      expect(audit.entries[0]).toMatchObject({ operator: 'admin', channel: 'api', connection: 'sync' });
    });

    it('the WMS re-sends a refused document: it is forwarded again, and processed once the ERP accepts', async () => {
      erp.behave({ status: 200, body: JSON.stringify({ success: false, message: 'no such purchase order' }) });
      const payload = uniquePayload('shipping-order-close', 'RESEND');
      expect(await (await postWebhook(svc.app, sync, 'shipping-order-close', payload)).json()).toEqual({
        success: false,
        message: 'no such purchase order',
      });
      erp.behave({ status: 200, body: JSON.stringify({ success: false, message: 'still no such purchase order' }) });
      expect(await (await postWebhook(svc.app, sync, 'shipping-order-close', payload)).json()).toEqual({
        success: false,
        message: 'still no such purchase order',
      });
      expect(await eventOf(sync, 'shipping-order-close', payload.closingDocumentCode)).toMatchObject({
        status: 'rejected_by_erp',
        error: 'still no such purchase order',
        duplicates: 1,
      });

      erp.behave({ status: 200, body: '{"success":true}' });
      const before = erp.received.length;
      const res = await postWebhook(svc.app, sync, 'shipping-order-close', payload);
      expect(await res.json()).toEqual({ success: true });
      expect(erp.received.length).toBe(before + 1);
      // Each forward is a new message to the ERP: the third asks again, it is not a retry of the first.
      const ids = erp.received.slice(-3).map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(3);
      await processed(sync, 'shipping-order-close', payload.closingDocumentCode);

      // Once decided, a repeat is acknowledged as usual and the ERP is not asked again.
      const again = await postWebhook(svc.app, sync, 'shipping-order-close', payload);
      expect(await again.json()).toMatchObject({ success: true, message: expect.stringMatching(/already received/i) });
      expect(erp.received.length).toBe(before + 1);
    });

    for (const kind of CLOSE_KINDS) {
      it(`${kind}: the ERP accepts (200 {success:true}): the WMS gets 200 and the event is processed`, async () => {
        erp.behave({ status: 200, body: '{"success":true}' });
        const payload = uniquePayload(kind, 'ACC');
        const asked = erp.nextRequest();
        const res = await postWebhook(svc.app, sync, kind, payload);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ success: true });
        const message = JSON.parse((await asked).body) as Record<string, unknown>;
        const event = await eventOf(sync, kind, payload.closingDocumentCode);
        expect(message).toMatchObject({ type: CLOSE_DOCUMENT_RECEIVED, connection: 'sync', kind, eventId: event.id });
        expect(message.data).toMatchObject({ closingDocumentCode: payload.closingDocumentCode });
        await processed(sync, kind, payload.closingDocumentCode);
      });
    }

    const undecided: [string, () => Promise<ConnectionConfig>][] = [
      ['an empty 204', async () => (erp.behave({ status: 204 }), sync)],
      [
        'a 2xx that is not JSON',
        async () => (erp.behave({ status: 200, body: '<html>ok</html>', contentType: 'text/html' }), sync),
      ],
      [
        'HTTP 500',
        async () => (erp.behave({ status: 500, body: '{"success":false,"message":"database down"}' }), sync),
      ],
      [
        'a 422 with success:false (not a 2xx: a failure, not a refusal)',
        async () => (erp.behave({ status: 422, body: '{"success":false,"message":"nope"}' }), sync),
      ],
      ['a dropped connection', async () => (erp.behave('drop'), sync)],
      ['an ERP that is down (nothing listens)', async () => down],
      ['an ERP that never answers (past the budget)', async () => hang],
    ];
    for (const [what, arrange] of undecided) {
      it(`${what}: the WMS gets 200 {success:true} and the event is processed as usual`, async () => {
        const conn = await arrange();
        const payload = uniquePayload('reception-close', 'UND');
        const res = await postWebhook(serviceOf(conn).app, conn, 'reception-close', payload);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ success: true });
        await processed(conn, 'reception-close', payload.closingDocumentCode);
      });
    }

    it('the message is signed (Standard Webhooks) with each secret during a rotation, and carries no credential', async () => {
      erp.behave({ status: 200, body: '' });
      const payload = uniquePayload('client-return-close', 'SIG');
      const asked = erp.nextRequest();
      expect((await postWebhook(svc.app, rotating, 'client-return-close', payload)).status).toBe(200);
      const req = await asked;
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      for (const s of [secret, previous])
        expect(new Webhook(s).verify(req.body, headers)).toMatchObject({ type: CLOSE_DOCUMENT_RECEIVED });
      expect(() => new Webhook(generateWebhookSecret()).verify(req.body, headers)).toThrow();
      expect(() => new Webhook(secret).verify(req.body.replace('SIG', 'SIH'), headers)).toThrow();
      // Security: neither the WMS's Basic credentials nor our webhook secrets travel to the ERP.
      const sent = JSON.stringify(req);
      for (const cred of rotating.webhookCredentials) expect(sent).not.toContain(cred.password);
      expect(sent).not.toContain(secret.slice(6));
      expect(sent).not.toContain(previous.slice(6));
      expect(req.headers.authorization).toBeUndefined();
    });

    it('20 close documents waiting on the ERP at once are 20 listeners on the stop signal, not a leak warning', async () => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      try {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            postWebhook(short.app, hang, 'reception-close', uniquePayload('reception-close', 'MANY')),
          ),
        );
        expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
        // Node emits its warning on a later tick.
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings).not.toContain('MaxListenersExceededWarning');
      } finally {
        process.off('warning', onWarning);
      }
    });

    it('a stock regularization is never forwarded, even on a sync connection', async () => {
      const before = erp.received.length;
      const res = await postWebhook(svc.app, sync, 'stock-regularization', uniquePayload('stock-regularization'));
      expect(await res.json()).toEqual({ success: true });
      expect(erp.received.length).toBe(before);
    });

    it('an async connection is unchanged: 200 at once, nothing forwarded, processed', async () => {
      erp.behave({ status: 200, body: JSON.stringify({ success: false, message: 'would refuse' }) });
      const before = erp.received.length;
      const payload = uniquePayload('reception-close', 'ASYNC');
      expect(await (await postWebhook(svc.app, plain, 'reception-close', payload)).json()).toEqual({ success: true });
      expect(erp.received.length).toBe(before);
      await processed(plain, 'reception-close', payload.closingDocumentCode);
    });

    it('a close document that processing cannot read is quarantined as usual, not forwarded', async () => {
      const before = erp.received.length;
      const payload: Record<string, unknown> = {
        ...uniquePayload('reception-close', 'Q'),
        lines: [{ externalCode: 'OIL', quantity: 'many' }],
      };
      expect(await (await postWebhook(svc.app, sync, 'reception-close', payload)).json()).toEqual({ success: true });
      expect(erp.received.length).toBe(before);
      expect((await eventOf(sync, 'reception-close', payload.closingDocumentCode)).status).toBe('quarantined');
    });

    it('while the ERP decides, the processing job is held (the safety net), so nothing is processed before the decision', async () => {
      const delayed = async () => {
        const b = await short.deps.queue.backlog(INBOUND_QUEUE);
        return b.waiting - b.ready;
      };
      const before = await delayed();
      const payload = uniquePayload('supplier-return-close', 'HELD');
      const asked = hangErp.nextRequest();
      const answer = postWebhook(short.app, hang, 'supplier-return-close', payload);
      await asked;
      // Stored before the ERP was asked, with a job that starts only after the budget and a margin.
      const event = await eventOf(hang, 'supplier-return-close', payload.closingDocumentCode);
      expect(event.status).toBe('received');
      expect(await delayed()).toBe(before + 1);
      expect((await answer).status).toBe(200);
      await processed(hang, 'supplier-return-close', payload.closingDocumentCode);
    });
  });
}
