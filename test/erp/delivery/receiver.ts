import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Receipt {
  id: string;
  body: Record<string, unknown>;
  /** Receipt order across the whole receiver. */
  seq: number;
  at: number;
}

/** What the receiver answers one request: a status (and headers), or nothing (the socket is held until `release`). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * An ERP endpoint for tests and the bench: a real HTTP server on port 0 that verifies every
 * Standard Webhooks signature (a bad one is a 401 and counted), records what it accepted, and
 * answers as `answer` says (200 by default).
 */
export async function startReceiver(
  secret: string,
  options: { answer?: (id: string, body: Record<string, unknown>, hit: number) => Answer } = {},
) {
  const wh = new Webhook(secret);
  const receipts: Receipt[] = [];
  const hits = new Map<string, number>();
  const held: { res: ServerResponse; id: string; body: Record<string, unknown> }[] = [];
  let badSignatures = 0;
  let requests = 0;
  let seq = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  let answer: (id: string, body: Record<string, unknown>, hit: number) => Answer =
    options.answer ?? (() => ({ status: 200 }));

  const accept = (id: string, body: Record<string, unknown>) => {
    receipts.push({ id, body, seq: seq++, at: performance.now() });
    for (const w of waiters.splice(0))
      if (receipts.length >= w.n) w.resolve();
      else waiters.push(w);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown>;
      try {
        body = wh.verify(raw, req.headers as Record<string, string>) as Record<string, unknown>;
      } catch {
        badSignatures++;
        res.writeHead(401).end('bad signature');
        return;
      }
      const id = String(req.headers['webhook-id']);
      const hit = (hits.get(id) ?? 0) + 1;
      hits.set(id, hit);
      const a = answer(id, body, hit);
      if (a === 'hang') {
        held.push({ res, id, body });
        return;
      }
      if (a.status >= 200 && a.status < 300) accept(id, body);
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(a.body ?? '{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/erp/hook`,
    receipts,
    hits,
    get badSignatures() {
      return badSignatures;
    },
    get requests() {
      return requests;
    },
    setAnswer(fn: (id: string, body: Record<string, unknown>, hit: number) => Answer) {
      answer = fn;
    },
    /** Resolves once `n` deliveries were accepted. */
    received(n: number): Promise<void> {
      if (receipts.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    /** How many requests are held now. */
    get heldCount() {
      return held.length;
    },
    /** Answers the held requests (a 2xx accepts them). */
    releaseHeld(status = 200) {
      for (const h of held.splice(0)) {
        if (status >= 200 && status < 300) accept(h.id, h.body);
        h.res.writeHead(status).end();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const h of held.splice(0)) h.res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
