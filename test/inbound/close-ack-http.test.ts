import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/commands/connections.js';
import { type AskErpInput, askErp, CLOSE_DOCUMENT_RECEIVED, ERP_BODY_LIMIT } from '../../src/inbound/close-ack-http.js';
import { deadUrl, type ScriptedErp, startScriptedErp } from './erp-receiver.js';

// askErp against a real HTTP ERP on port 0: what each answer becomes, and the budget, the stop
// signal and the transport's failures. The service-level behaviour is in close-ack.suite.ts.
describe('askErp: one signed POST to the ERP, and what its answer decides', () => {
  const secret = newWebhookSecret();
  let erp: ScriptedErp;
  let other: ScriptedErp;

  beforeAll(async () => {
    erp = await startScriptedErp();
    other = await startScriptedErp();
  });
  afterAll(async () => {
    await erp.close();
    await other.close();
  });
  beforeEach(() => {
    erp.received.length = 0;
    other.received.length = 0;
  });

  const input = (over: Partial<AskErpInput> = {}): AskErpInput => ({
    url: erp.url,
    secrets: [secret],
    messageId: `close_${Math.random().toString(36).slice(2)}`,
    at: new Date(),
    message: {
      type: CLOSE_DOCUMENT_RECEIVED,
      connection: 'main',
      kind: 'reception-close',
      eventId: 7,
      data: {
        closingDocumentCode: 'REC-1',
        documentNumber: [],
        documentExternalCode: 'PO-1',
        documentType: 'PURCHASE_ORDER',
        company: null,
        observations: null,
        lines: [],
        originCode: null,
        receptionDate: null,
      },
    },
    timeoutMs: 5000,
    ...over,
  });

  it('a 200 {success:true} accepts; the message is the JSON document, signed (Standard Webhooks), from wms-sync', async () => {
    erp.behave({ status: 200, body: '{"success":true}' });
    const sent = input();
    const answer = await askErp(sent);
    expect(answer).toMatchObject({ decision: 'accepted', status: 200 });
    const [request] = erp.received;
    expect(JSON.parse(request!.body)).toEqual(sent.message);
    expect(request!.headers['user-agent']).toBe('wms-sync');
    expect(request!.headers['webhook-id']).toBe(sent.messageId);
    expect(() => new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).not.toThrow();
  });

  it('a 2xx {success:false, message} refuses, with the message', async () => {
    erp.behave({ status: 200, body: '{"success":false,"message":"Purchase order closed"}' });
    expect(await askErp(input())).toMatchObject({
      decision: 'rejected',
      status: 200,
      message: 'Purchase order closed',
    });
  });

  it(`a body over ${ERP_BODY_LIMIT} bytes is not read to its end and cannot refuse: accepted`, async () => {
    erp.behave({ status: 200, body: JSON.stringify({ success: false, message: 'x'.repeat(ERP_BODY_LIMIT) }) });
    expect(await askErp(input())).toMatchObject({ decision: 'accepted', status: 200 });
  });

  it('a redirect is not followed: it decides nothing (HTTP 302), and its target is never called', async () => {
    erp.behave({ status: 302, headers: { location: other.url } });
    expect(await askErp(input())).toMatchObject({ decision: 'none', reason: 'http_status', detail: 'HTTP 302' });
    expect(other.received).toHaveLength(0);
  });

  it('an ERP that never answers decides nothing once the budget is spent (timeout)', async () => {
    erp.behave('hang');
    expect(await askErp(input({ timeoutMs: 100 }))).toMatchObject({
      decision: 'none',
      reason: 'timeout',
      detail: 'no answer within 100 ms',
    });
  });

  it('the budget covers the body: headers sent, body never ended, is a timeout', async () => {
    erp.behave({ status: 200, body: '{"success":', endless: true });
    expect(await askErp(input({ timeoutMs: 100 }))).toMatchObject({ decision: 'none', reason: 'timeout' });
  });

  it('nothing listening, or a dropped connection, is unreachable', async () => {
    expect(await askErp(input({ url: await deadUrl() }))).toMatchObject({
      decision: 'none',
      reason: 'unreachable',
      detail: 'ECONNREFUSED',
    });
    erp.behave('drop');
    expect(await askErp(input())).toMatchObject({ decision: 'none', reason: 'unreachable' });
  });

  it('the process stopping ends the wait at once: unreachable, not a timeout', async () => {
    erp.behave('hang');
    const stopping = new AbortController();
    const arrived = erp.nextRequest();
    const asked = askErp(input({ timeoutMs: 60_000, signal: stopping.signal }));
    await arrived;
    stopping.abort();
    const answer = await asked;
    expect(answer).toMatchObject({ decision: 'none', reason: 'unreachable' });
    expect(answer.ms).toBeLessThan(60_000);
  });

  it('a process already stopping does not wait either', async () => {
    erp.behave('hang');
    const stopping = new AbortController();
    stopping.abort();
    expect(await askErp(input({ timeoutMs: 60_000, signal: stopping.signal }))).toMatchObject({
      decision: 'none',
      reason: 'unreachable',
    });
  });
});
