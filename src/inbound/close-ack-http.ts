import { type Dispatcher, request } from 'undici';
import { signMessage } from '../erp/delivery/sign.js';
import type { CloseDocumentMessage } from '../erp/feed/entry-schemas.js';

/*
 * The one message the synchronous close acknowledgement sends (docs/erp-delivery.md, "The contract
 * your endpoint must follow"): a close document the WMS has just sent, waiting for the ERP's
 * decision. Its schema (erp/feed/entry-schemas.ts) is the `close_document.received` entry of the
 * document's `webhooks`; nothing of the WMS's request (its Basic credentials, its headers) is in it.
 */
export { CLOSE_DOCUMENT_RECEIVED, type CloseDocumentMessage } from '../erp/feed/entry-schemas.js';

/** What the ERP decided, or why it decided nothing. */
export type ErpAnswer =
  | { decision: 'accepted'; status: number; ms: number }
  | { decision: 'rejected'; status: number; message: string; ms: number }
  | { decision: 'none'; reason: 'timeout' | 'unreachable' | 'http_status' | 'unreadable'; detail: string; ms: number };

/** Longest ERP body read; a longer one is not a `{success:false}` answer. */
export const ERP_BODY_LIMIT = 64 * 1024;
/** Longest ERP message passed on to the WMS and kept on the event. */
export const ERP_MESSAGE_LIMIT = 2000;
export const NO_MESSAGE = 'Refused by the ERP (it gave no message)';

/**
 * The ERP's answer, read by the rules the spec gives the WMS's own receivers (obligations 2–4):
 * a 2xx accepts, unless its body is JSON with `success: false`, which refuses, with `message`; any
 * other status decides nothing (the document is then processed as if the ERP had not been asked).
 */
export function judgeErpAnswer(status: number, body: string, ms: number): ErpAnswer {
  if (status < 200 || status > 299) return { decision: 'none', reason: 'http_status', detail: `HTTP ${status}`, ms };
  let parsed: unknown;
  try {
    parsed = body.trim() === '' ? undefined : JSON.parse(body);
  } catch {
    return { decision: 'accepted', status, ms };
  }
  if (parsed === null || typeof parsed !== 'object' || (parsed as { success?: unknown }).success !== false)
    return { decision: 'accepted', status, ms };
  const message = (parsed as { message?: unknown }).message;
  const text = typeof message === 'string' && message.trim() !== '' ? message.slice(0, ERP_MESSAGE_LIMIT) : NO_MESSAGE;
  return { decision: 'rejected', status, message: text, ms };
}

export interface AskErpInput {
  url: string;
  secrets: readonly string[];
  messageId: string;
  at: Date;
  message: CloseDocumentMessage;
  timeoutMs: number;
  /** Aborted when the process stops: the document then goes on as if the ERP had not answered. */
  signal?: AbortSignal;
}

/**
 * POSTs the signed message and waits for the ERP's answer, at most `timeoutMs` (body included).
 *
 * undici's `request`, not fetch: at 20 documents in flight the WMS's answers wait for this
 * process's CPU, and fetch's WHATWG Request, Response, body streams and combined AbortSignals cost
 * several times the exchange itself (docs/benchmarks.md, "ERP close acknowledgement"; the WMS
 * client made the same choice, wms-client/http.ts). Redirects are not followed (undici's default).
 */
export async function askErp(input: AskErpInput): Promise<ErpAnswer> {
  const body = JSON.stringify(input.message);
  const headers = { ...signMessage(input.secrets, input.messageId, input.at, body), 'user-agent': 'wms-sync' };
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 100) / 100;
  // One controller for the budget and the process's stop: the budget covers the body too.
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, input.timeoutMs);
  const stop = () => abort.abort();
  input.signal?.addEventListener('abort', stop, { once: true });
  if (input.signal?.aborted) abort.abort();
  try {
    const res = await request(input.url, { method: 'POST', headers, body, signal: abort.signal });
    const text = await readCapped(res.body, ERP_BODY_LIMIT);
    return judgeErpAnswer(res.statusCode, text ?? '', ms());
  } catch (err) {
    if (timedOut)
      return { decision: 'none', reason: 'timeout', detail: `no answer within ${input.timeoutMs} ms`, ms: ms() };
    const e = err as { code?: string; message?: string; cause?: { code?: string } };
    return {
      decision: 'none',
      reason: 'unreachable',
      detail: e.cause?.code ?? e.code ?? e.message ?? String(err),
      ms: ms(),
    };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', stop);
  }
}

/** The body as text, or undefined past `limit` bytes (then it cannot be a `{success:false}` answer). */
async function readCapped(body: Dispatcher.ResponseData['body'], limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).byteLength;
    if (size > limit) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
