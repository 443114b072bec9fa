import { Hono } from 'hono';
import { Webhook } from 'standardwebhooks';
import { CLOSE_DOCUMENT_RECEIVED } from '../inbound/close-ack.js';
import { ERP_MESSAGE_LIMIT } from '../inbound/close-ack-http.js';
import { type Listening, listen } from '../lib/listen.js';

/**
 * A tiny ERP receiver for the demo (`wms-sync start` wires it): it verifies every message's
 * Standard Webhooks signature, records what it got, and answers like an ERP would. A close
 * document (`close_document.received`, the synchronous acknowledgement) is refused with
 * `{success:false, message}` when it was told to refuse that document code; every other message
 * (the feed events pushed to the ERP) is recorded and acknowledged. Control, for the demo and the
 * curious: `GET /messages`, `PUT /reject/{documentCode}` `{message}`, `DELETE /reject/{documentCode}`,
 * `GET /rejections`. It listens on 127.0.0.1 by default: it is a demo, not an ERP.
 */

export interface SampleErpMessage {
  seq: number;
  receivedAt: string;
  webhookId: string;
  type: string;
  /** The message as sent (signature verified). */
  body: Record<string, unknown>;
  /** What the sample ERP answered. */
  answer: { status: number; body: unknown };
}

export interface SampleErpOptions {
  /** Standard Webhooks secrets (`whsec_…`): a message signed with any of them is accepted. */
  secrets: readonly string[];
  /** Messages kept (oldest dropped first). */
  keep?: number;
  /** Bytes of message bodies kept in all (oldest dropped first). */
  keepBytes?: number;
}

/** Longest message body read; a longer one is answered 413 without being read further. */
export const SAMPLE_ERP_BODY_LIMIT = 1024 * 1024;
/** Bytes of kept message bodies, all messages together, by default. */
export const SAMPLE_ERP_KEEP_BYTES = 16 * 1024 * 1024;
/** Refusals it holds at once, and the longest document code and message of one. */
export const SAMPLE_ERP_MAX_REJECTIONS = 1000;
const REJECT_BODY_LIMIT = 8 * 1024;
const CODE_LIMIT = 200;

/** The body as text, or undefined once it passes `limit` bytes (the rest is never read). */
async function cappedBody(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sampleErpApp(options: SampleErpOptions) {
  const verifiers = options.secrets.map((s) => new Webhook(s));
  const keep = options.keep ?? 1000;
  const keepBytes = options.keepBytes ?? SAMPLE_ERP_KEEP_BYTES;
  const messages: (SampleErpMessage & { bytes: number })[] = [];
  let keptBytes = 0;
  const rejections = new Map<string, string>();
  let seq = 0;
  let refused = 0;
  const app = new Hono();

  app.post('/webhooks', async (c) => {
    const raw = await cappedBody(c.req.raw, SAMPLE_ERP_BODY_LIMIT);
    if (raw === undefined) return c.json({ success: false, message: 'body too large' }, 413);
    const headers = {
      'webhook-id': c.req.header('webhook-id') ?? '',
      'webhook-timestamp': c.req.header('webhook-timestamp') ?? '',
      'webhook-signature': c.req.header('webhook-signature') ?? '',
    };
    const body = verifiers.map((v) => verified(v, raw, headers)).find((b) => b !== undefined);
    if (body === undefined) {
      refused += 1;
      return c.json({ success: false, message: 'signature verification failed' }, 401);
    }
    const type = typeof body.type === 'string' ? body.type : 'unknown';
    let answer: { success: boolean; message?: string } = { success: true };
    if (type === CLOSE_DOCUMENT_RECEIVED) {
      const data = (body.data ?? {}) as { documentExternalCode?: unknown; closingDocumentCode?: unknown };
      const reason = [data.documentExternalCode, data.closingDocumentCode]
        .map((code) => (typeof code === 'string' ? rejections.get(code) : undefined))
        .find((r) => r !== undefined);
      if (reason !== undefined) answer = { success: false, message: reason };
    }
    seq += 1;
    const bytes = Buffer.byteLength(raw);
    messages.push({
      seq,
      receivedAt: new Date().toISOString(),
      webhookId: headers['webhook-id'],
      type,
      body,
      answer: { status: 200, body: answer },
      bytes,
    });
    keptBytes += bytes;
    while (messages.length > keep || (keptBytes > keepBytes && messages.length > 1))
      keptBytes -= messages.shift()!.bytes;
    return c.json(answer, 200);
  });

  app.get('/messages', (c) => {
    const type = c.req.query('type');
    const code = c.req.query('code');
    const after = Number(c.req.query('after') ?? 0);
    const list = messages
      .filter((m) => m.seq > after && (!type || m.type === type) && (!code || mentions(m.body, code)))
      .map(({ bytes: _bytes, ...m }) => m);
    return c.json({ messages: list, refused });
  });

  app.put('/reject/:code', async (c) => {
    const code = c.req.param('code');
    if (code.length > CODE_LIMIT)
      return c.json({ success: false, message: `a document code has at most ${CODE_LIMIT} characters` }, 400);
    const text = await cappedBody(c.req.raw, REJECT_BODY_LIMIT);
    if (text === undefined) return c.json({ success: false, message: 'body too large' }, 413);
    let body: { message?: unknown } | undefined;
    try {
      body = JSON.parse(text) as { message?: unknown };
    } catch {
      body = undefined;
    }
    if (typeof body?.message !== 'string' || body.message.trim() === '')
      return c.json(
        { success: false, message: 'expected a JSON body {"message": "why the ERP refuses this document"}' },
        400,
      );
    if (body.message.length > ERP_MESSAGE_LIMIT)
      return c.json({ success: false, message: `a message has at most ${ERP_MESSAGE_LIMIT} characters` }, 400);
    if (!rejections.has(code) && rejections.size >= SAMPLE_ERP_MAX_REJECTIONS)
      return c.json({ success: false, message: `at most ${SAMPLE_ERP_MAX_REJECTIONS} refusals at once` }, 409);
    rejections.set(code, body.message);
    return c.json({ documentCode: code, message: body.message }, 200);
  });

  app.delete('/reject/:code', (c) =>
    rejections.delete(c.req.param('code'))
      ? c.body(null, 204)
      : c.json({ success: false, message: 'no refusal for that code' }, 404),
  );

  app.get('/rejections', (c) => c.json(Object.fromEntries(rejections)));

  app.notFound((c) => c.json({ success: false, message: `no route ${c.req.method} ${c.req.path}` }, 404));
  return app;
}

function verified(
  verifier: Webhook,
  raw: string,
  headers: Record<string, string>,
): Record<string, unknown> | undefined {
  try {
    const body = verifier.verify(raw, headers);
    return body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A message about this document: its close document data, or a feed event's data, names the code. */
function mentions(body: Record<string, unknown>, code: string): boolean {
  const data = (body.data ?? {}) as Record<string, unknown>;
  return data.documentExternalCode === code || data.closingDocumentCode === code;
}

export interface SampleErp extends Listening {
  /** Where wms-sync sends its messages. */
  webhookUrl: string;
}

export async function startSampleErp(options: SampleErpOptions & { port: number; host?: string }): Promise<SampleErp> {
  const listening = await listen(sampleErpApp(options).fetch, {
    port: options.port,
    host: options.host ?? '127.0.0.1',
  });
  return { ...listening, webhookUrl: `${listening.url}/webhooks` };
}
