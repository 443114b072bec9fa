import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ErpRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * What the scripted ERP does with a request: answer, hold it until the test ends, or drop the
 * socket. `endless`: send the status, headers and body, then never end the body.
 */
export type ErpBehaviour =
  | { status: number; body?: string; contentType?: string; headers?: Record<string, string>; endless?: boolean }
  | 'hang'
  | 'drop';

export interface ScriptedErp {
  url: string;
  received: ErpRequest[];
  /** The behaviour of the next requests (until changed). */
  behave(next: ErpBehaviour | ((req: ErpRequest) => ErpBehaviour)): void;
  /** Resolves with the next request that arrives. */
  nextRequest(): Promise<ErpRequest>;
  close(): Promise<void>;
}

/** A real HTTP ERP on port 0 whose answers the test scripts: the other side of the close acknowledgement. */
export async function startScriptedErp(): Promise<ScriptedErp> {
  const received: ErpRequest[] = [];
  let behaviour: ErpBehaviour | ((req: ErpRequest) => ErpBehaviour) = { status: 200, body: '{"success":true}' };
  let waiters: ((r: ErpRequest) => void)[] = [];
  const held = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const now = waiters;
      waiters = [];
      for (const w of now) w(request);
      const b = typeof behaviour === 'function' ? behaviour(request) : behaviour;
      if (b === 'hang') {
        const release = () => res.destroy();
        held.add(release);
        res.on('close', () => held.delete(release));
        return;
      }
      if (b === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(b.status, { 'content-type': b.contentType ?? 'application/json', ...b.headers });
      if (!b.endless) return void res.end(b.body ?? '');
      res.write(b.body ?? ' ');
      const release = () => res.destroy();
      held.add(release);
      res.on('close', () => held.delete(release));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/wms-sync/close-documents`,
    received,
    behave: (next) => {
      behaviour = next;
    },
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    close: async () => {
      for (const release of held) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A URL where nothing listens: a port just freed. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/erp`;
}
