import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the peer does with one request:
 *   - `ok`: reads the whole body, answers 200 `{"success":true}`;
 *   - `close-mid-body`: reads the first chunk of the body, then destroys the connection;
 *   - `reject-unread`: answers 413 at once, without reading the body, and closes the connection
 *     (what a proxy with a body limit does; the client is often still writing);
 *   - `reset`: reads nothing, resets the connection (TCP RST);
 *   - `hang`: reads the body and never answers (the socket stays open until `close`);
 *   - `trickle`: answers 200 and sends one byte of its body every `trickleMs`, never ending;
 *   - `huge`: answers 200 with a body of `hugeBytes` (100 MB by default), sent as fast as it is read;
 *   - `half-open`: reads the body, answers the headers of a 200 with a content-length it never
 *     fills, and keeps the socket open.
 */
export type PeerMode = 'ok' | 'close-mid-body' | 'reject-unread' | 'reset' | 'hang' | 'trickle' | 'huge' | 'half-open';

export const PEER_MODES: readonly PeerMode[] = [
  'ok',
  'close-mid-body',
  'reject-unread',
  'reset',
  'hang',
  'trickle',
  'huge',
  'half-open',
];

export interface MisbehavingPeer {
  url: string;
  /** Requests received, in order, with the mode each got. */
  readonly hits: { path: string; mode: PeerMode }[];
  /** Resolves once `n` requests have arrived. */
  received(n: number): Promise<void>;
  /** Bytes of answer bodies written so far (`huge`, `trickle`). */
  readonly bytesSent: number;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (port 0) that misbehaves on purpose, one mode per request as
 * `modeFor(hit, path)` says (hit counts from 1). For the suites that drive every outgoing client
 * of the service against a peer that breaks its sockets, in the same process as the service.
 */
export async function startMisbehavingPeer(
  modeFor: (hit: number, path: string) => PeerMode,
  options: { trickleMs?: number; hugeBytes?: number } = {},
): Promise<MisbehavingPeer> {
  const hits: { path: string; mode: PeerMode }[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let bytesSent = 0;
  const hugeBytes = options.hugeBytes ?? 100 * 1024 * 1024;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const mode = modeFor(hits.length + 1, req.url ?? '/');
    hits.push({ path: req.url ?? '/', mode });
    for (const w of waiters.splice(0))
      if (hits.length >= w.n) w.resolve();
      else waiters.push(w);
    // A peer's own socket errors are its business, never the test's.
    req.socket.on('error', () => undefined);
    switch (mode) {
      case 'ok':
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'));
        return;
      case 'close-mid-body':
        req.once('data', () => req.socket.destroy());
        req.once('end', () => req.socket.destroy());
        return;
      case 'reject-unread':
        res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' });
        res.end('too large', () => req.socket.destroy());
        return;
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'hang':
        req.resume();
        return;
      case 'trickle': {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => {
          bytesSent += 1;
          res.write(' ');
        }, options.trickleMs ?? 20);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'huge': {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(hugeBytes) });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let left = hugeBytes;
        const pump = () => {
          while (left > 0) {
            const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
            left -= part.length;
            bytesSent += part.length;
            if (!res.write(part)) {
              res.once('drain', pump);
              return;
            }
          }
          res.end();
        };
        res.on('close', () => {
          left = 0;
        });
        pump();
        return;
      }
      case 'half-open':
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"succ');
        });
        return;
    }
  };

  const server = createServer(handle);
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    get bytesSent() {
      return bytesSent;
    },
    received(n) {
      if (hits.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
