import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/commands/connections.js';
import { type SampleErp, startSampleErp } from '../../src/demo/sample-erp.js';
import { signMessage } from '../../src/erp/delivery/sign.js';
import { CLOSE_DOCUMENT_RECEIVED } from '../../src/inbound/close-ack.js';

// The sample ERP over real HTTP, sent what wms-sync sends (signMessage): both message kinds.
describe('sample ERP receiver', () => {
  const secret = newWebhookSecret();
  const previous = newWebhookSecret();
  let erp: SampleErp;
  let n = 0;

  const send = (body: unknown, options: { secrets?: string[]; at?: Date; tamper?: (raw: string) => string } = {}) => {
    const raw = JSON.stringify(body);
    n += 1;
    const headers = signMessage(options.secrets ?? [secret], `msg_${n}`, options.at ?? new Date(), raw);
    return fetch(erp.webhookUrl, {
      method: 'POST',
      headers: { ...headers },
      body: options.tamper ? options.tamper(raw) : raw,
    });
  };
  const close = (code: string, po: string) => ({
    type: CLOSE_DOCUMENT_RECEIVED,
    connection: 'demo',
    kind: 'reception-close',
    eventId: n + 1,
    data: { closingDocumentCode: code, documentExternalCode: po },
  });
  const messages = async (query = '') =>
    (await (await fetch(`${erp.url}/messages${query}`)).json()) as {
      messages: { type: string; webhookId: string; answer: { body: unknown } }[];
      refused: number;
    };

  beforeAll(async () => {
    erp = await startSampleErp({ port: 0, secrets: [secret, previous] });
  });
  afterAll(async () => {
    await erp.close();
  });

  it('accepts a close document it was not told to refuse, and records it', async () => {
    const res = await send(close('REC-1', 'PO-1'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    const { messages: list } = await messages('?code=PO-1');
    expect(list).toMatchObject([
      { type: CLOSE_DOCUMENT_RECEIVED, webhookId: `msg_${n}`, answer: { body: { success: true } } },
    ]);
  });

  it('refuses a close document by its ERP code or its closing code once told to, until told otherwise', async () => {
    const put = await fetch(`${erp.url}/reject/PO-2`, {
      method: 'PUT',
      body: JSON.stringify({ message: 'PO-2 is closed' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(put.status).toBe(200);
    expect(await (await send(close('REC-2', 'PO-2'))).json()).toEqual({ success: false, message: 'PO-2 is closed' });
    await fetch(`${erp.url}/reject/REC-3`, { method: 'PUT', body: JSON.stringify({ message: 'not that reception' }) });
    expect(await (await send(close('REC-3', 'PO-3'))).json()).toEqual({
      success: false,
      message: 'not that reception',
    });
    expect(await (await fetch(`${erp.url}/rejections`)).json()).toEqual({
      'PO-2': 'PO-2 is closed',
      'REC-3': 'not that reception',
    });
    expect((await fetch(`${erp.url}/reject/PO-2`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await send(close('REC-2', 'PO-2'))).json()).toEqual({ success: true });
  });

  it('records feed events pushed to it and acknowledges them, even about a refused code', async () => {
    const res = await send({ type: 'reception.closed', id: 7, data: { documentExternalCode: 'REC-3' } });
    expect(await res.json()).toEqual({ success: true });
    expect((await messages('?type=reception.closed')).messages).toHaveLength(1);
  });

  it('verifies with either secret during a rotation', async () => {
    expect((await send(close('REC-4', 'PO-4'), { secrets: [previous] })).status).toBe(200);
    expect((await send(close('REC-5', 'PO-5'), { secrets: [newWebhookSecret(), secret] })).status).toBe(200);
  });

  it('security: refuses (401, not recorded) an unsigned, wrongly signed, tampered or stale message', async () => {
    const before = await messages();
    const unsigned = await fetch(erp.webhookUrl, {
      method: 'POST',
      body: JSON.stringify(close('X', 'X')),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(401);
    expect((await send(close('X', 'X'), { secrets: [newWebhookSecret()] })).status).toBe(401);
    expect((await send(close('X', 'X'), { tamper: (raw) => raw.replace('"X"', '"Y"') })).status).toBe(401);
    // Standard Webhooks: a timestamp more than 5 minutes away is refused (replay protection).
    expect((await send(close('X', 'X'), { at: new Date(Date.now() - 10 * 60_000) })).status).toBe(401);
    const after = await messages();
    expect(after.messages.length).toBe(before.messages.length);
    expect(after.refused).toBe(before.refused + 4);
  });

  it('errors: a refusal without a message is 400; lifting an unknown one is 404; a body over 1 MB is 413; unknown routes 404', async () => {
    expect((await fetch(`${erp.url}/reject/PO-9`, { method: 'PUT', body: '{}' })).status).toBe(400);
    expect((await fetch(`${erp.url}/reject/PO-9`, { method: 'PUT', body: 'not json' })).status).toBe(400);
    expect((await fetch(`${erp.url}/reject/PO-9`, { method: 'DELETE' })).status).toBe(404);
    expect((await send({ type: 'x', pad: 'a'.repeat(1024 * 1024) })).status).toBe(413);
    expect((await fetch(`${erp.url}/nothing`)).status).toBe(404);
  });

  it('is bounded: a chunked 100 MB POST and a 100 MB refusal are cut off unread (413); codes, messages and refusals have limits', async () => {
    const rssBefore = process.memoryUsage().rss;
    // Chunked (no content-length): 100 MB offered, a chunk at a time, while the ERP reads it.
    const huge = (bytes: number) => {
      let left = bytes;
      const chunk = new Uint8Array(64 * 1024).fill(0x61);
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (left <= 0) return controller.close();
          left -= chunk.length;
          controller.enqueue(chunk);
        },
      });
    };
    const post = await fetch(erp.webhookUrl, {
      method: 'POST',
      body: huge(100 * 1024 * 1024),
      duplex: 'half',
    } as RequestInit).catch((err: unknown) => err);
    // The ERP answers 413 and stops reading: fetch sees the 413, or the socket closed under its upload.
    if (post instanceof Response) expect(post.status).toBe(413);
    const put = await fetch(`${erp.url}/reject/PO-BIG`, {
      method: 'PUT',
      body: huge(100 * 1024 * 1024),
      duplex: 'half',
    } as RequestInit).catch((err: unknown) => err);
    if (put instanceof Response) expect(put.status).toBe(413);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(80 * 1024 * 1024);
    const long = (n: number) => JSON.stringify({ message: 'm'.repeat(n) });
    expect((await fetch(`${erp.url}/reject/PO-L`, { method: 'PUT', body: long(2001) })).status).toBe(400);
    expect((await fetch(`${erp.url}/reject/${'C'.repeat(201)}`, { method: 'PUT', body: long(5) })).status).toBe(400);
    expect(Object.keys((await (await fetch(`${erp.url}/rejections`)).json()) as object)).not.toContain('PO-BIG');
  });

  it('keeps at most 1,000 refusals, and messages up to their count and total size (oldest dropped first)', async () => {
    const small = await startSampleErp({ port: 0, secrets: [secret], keep: 50, keepBytes: 4096 });
    try {
      for (let i = 0; i < 20; i++) {
        const raw = JSON.stringify({ type: 'stock.adjusted', pad: 'p'.repeat(1000), i });
        const res = await fetch(small.webhookUrl, {
          method: 'POST',
          headers: { ...signMessage([secret], `m${i}`, new Date(), raw) },
          body: raw,
        });
        expect(res.status).toBe(200);
      }
      const kept = (await (await fetch(`${small.url}/messages`)).json()) as { messages: { body: { i: number } }[] };
      expect(kept.messages.length).toBeLessThanOrEqual(4);
      expect(kept.messages.at(-1)!.body.i).toBe(19);
      for (let i = 0; i < 1000; i++)
        expect((await fetch(`${small.url}/reject/R${i}`, { method: 'PUT', body: '{"message":"no"}' })).status).toBe(
          200,
        );
      expect((await fetch(`${small.url}/reject/R-over`, { method: 'PUT', body: '{"message":"no"}' })).status).toBe(409);
      // Replacing a refusal already held is still allowed.
      expect((await fetch(`${small.url}/reject/R1`, { method: 'PUT', body: '{"message":"still no"}' })).status).toBe(
        200,
      );
    } finally {
      await small.close();
    }
  });
});
