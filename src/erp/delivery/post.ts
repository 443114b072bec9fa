import http from 'node:http';
import https from 'node:https';
import { RESPONSE_KEEP_BYTES } from '../../store/erp-deliveries/filter.js';
import type { PostOutcome } from './classify.js';

export interface Poster {
  post(url: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<PostOutcome>;
  close(): void;
}

/**
 * Answer bytes read past the kept part so that the connection can be reused; a longer answer ends
 * the exchange there (its status is known) and closes the connection instead.
 */
export const RESPONSE_DRAIN_BYTES = 64 * 1024;

/**
 * POSTs over kept-alive connections (one pool per process, `maxSockets` = the delivery
 * concurrency), with a deadline on the whole exchange. Only the first KB of an answer is kept;
 * up to RESPONSE_DRAIN_BYTES more are drained so the connection can be reused. Whatever the peer
 * does to the socket (closes it mid-body, answers before reading and closes, resets, hangs,
 * trickles) ends in a `no-answer` or `answered` outcome, never in an error event left unheard.
 */
export function createPoster(options: { timeoutMs: number; maxSockets: number; nowMs?: () => number }): Poster {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
  };
  const nowMs = options.nowMs ?? (() => performance.now());
  return {
    post: (url, headers, body, signal) =>
      new Promise<PostOutcome>((resolve) => {
        const started = nowMs();
        const elapsed = () => nowMs() - started;
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          resolve({ kind: 'no-answer', timeout: false, error: 'invalid URL', latencyMs: 0 });
          return;
        }
        const lib = target.protocol === 'https:' ? https : http;
        const agent = agents[target.protocol as 'http:' | 'https:'];
        let done = false;
        const finish = (outcome: PostOutcome) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        };
        const req = lib.request(
          target,
          { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
          (res) => {
            const chunks: Buffer[] = [];
            let kept = 0;
            let read = 0;
            const answered = () => {
              const text = Buffer.concat(chunks).subarray(0, RESPONSE_KEEP_BYTES).toString('utf8');
              const retryAfter = res.headers['retry-after'];
              finish({
                kind: 'answered',
                status: res.statusCode ?? 0,
                retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
                response: text === '' ? null : text,
                latencyMs: elapsed(),
              });
            };
            res.on('data', (chunk: Buffer) => {
              read += chunk.length;
              if (kept < RESPONSE_KEEP_BYTES) {
                chunks.push(chunk);
                kept += chunk.length;
              }
              if (read > RESPONSE_KEEP_BYTES + RESPONSE_DRAIN_BYTES) {
                answered();
                req.destroy();
              }
            });
            res.on('end', answered);
            res.on('error', (err) =>
              finish({ kind: 'no-answer', timeout: false, error: err.message, latencyMs: elapsed() }),
            );
          },
        );
        const timer = setTimeout(() => {
          finish({
            kind: 'no-answer',
            timeout: true,
            error: `no answer within ${options.timeoutMs} ms`,
            latencyMs: elapsed(),
          });
          req.destroy();
        }, options.timeoutMs);
        const onAbort = () => {
          finish({ kind: 'no-answer', timeout: false, error: 'stopped', latencyMs: elapsed() });
          req.destroy();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        req.on('error', (err) =>
          finish({
            kind: 'no-answer',
            timeout: false,
            error: (err as NodeJS.ErrnoException).code ?? err.message,
            latencyMs: elapsed(),
          }),
        );
        req.end(body);
      }),
    close: () => {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
