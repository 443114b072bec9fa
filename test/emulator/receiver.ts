import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  body: unknown;
}

/** How the receiver answers one request: a status and body, or never (to trigger the sender's timeout); possibly later. */
export type Reply = { status: number; body?: unknown } | 'hang';

/**
 * A real HTTP webhook receiver on port 0 (node:http), recording every request exactly as it
 * arrived. `reply` decides each answer (200 `{success:true}` unless told otherwise).
 */
export async function startReceiver(
  reply: (req: Received) => Reply | Promise<Reply> = () => ({ status: 200, body: { success: true } }),
) {
  const received: Received[] = [];
  const events = new EventEmitter<{ request: [Received] }>();
  const hanging: ServerResponse[] = [];
  let answer = reply;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, text, body };
      received.push(request);
      events.emit('request', request);
      const r = await answer(request);
      if (r === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(r.status, { 'content-type': 'application/json' });
      res.end(r.body === undefined ? '' : JSON.stringify(r.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    events,
    /** Changes how later requests are answered. */
    answer(next: (req: Received) => Reply | Promise<Reply>) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** A promise with its resolve function outside: `gate.open()` lets a held reply go. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
