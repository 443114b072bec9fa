import http from 'node:http';
import type { AddressInfo } from 'node:net';
import picomatch from 'picomatch';

/**
 * A real HTTP proxy in front of the emulator (or of the service, for webhooks) that misbehaves on
 * purpose. Beside the emulator's own fault injection (`POST /_emulator/faults`: statuses, latency,
 * drops), it holds a request or an answer until the test releases it, loses an answer the upstream
 * gave, and logs every request. Each fault applies to the next `count` requests matching `method`
 * and `path` (a glob on the path without query string); a fault with no action lets them through:
 *   - `status`: answer this status (and `body`, `headers`) without forwarding;
 *   - `drop`: destroy the connection without forwarding (the client sees the socket close);
 *   - `lose`: forward, let the upstream do the work, then close the connection without its answer
 *     (what a client sees when its timeout fires after the WMS acted, with no clock involved);
 *   - `hold`: forward, let the upstream answer, and keep that answer until `release()` (then send
 *     it, or close without it when `lose` is set too); a client that gives up first just leaves;
 *   - `holdRequest`: keep the request itself until `release()`, then forward it (the upstream
 *     learns of it only then, as with a message still on its way).
 * It also logs every request and the most requests it ever had in flight at once.
 */
export interface Fault {
  method?: string;
  path: string;
  count?: number;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  drop?: boolean;
  lose?: boolean;
  hold?: boolean;
  holdRequest?: boolean;
}

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The query string as sent ('' for none). */
  query: string;
  /** When it arrived (ms since the epoch). */
  at: number;
  /** What the proxy did: forwarded, or which fault it applied. */
  outcome: 'forwarded' | 'status' | 'drop' | 'held' | 'lost';
  /** The upstream's status, once it answered (for held and lost requests too). */
  status?: number;
}

export interface FaultyProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Requests received and not yet answered (held ones included). */
  readonly inFlight: number;
  maxInFlight: number;
  inject(fault: Fault): void;
  /** Lets every held answer go (or be lost, for `lose` faults). */
  release(): void;
  /** Forgets the faults not used yet and releases held answers. */
  clear(): void;
  /** Requests seen so far whose method and path match. */
  count(method: string, pathGlob: string): number;
  close(): Promise<void>;
}

export async function startFaultyProxy(upstream: string): Promise<FaultyProxy> {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const faults: (Fault & { left: number; match: (p: string) => boolean })[] = [];
  const requests: ProxiedRequest[] = [];
  let held: (() => void)[] = [];
  let inFlight = 0;
  const proxy: FaultyProxy = {
    url: '',
    requests,
    get inFlight() {
      return inFlight;
    },
    maxInFlight: 0,
    inject: (fault) => faults.push({ ...fault, left: fault.count ?? 1, match: picomatch(fault.path) }),
    release: () => {
      const go = held;
      held = [];
      for (const send of go) send();
    },
    clear: () => {
      faults.splice(0);
      proxy.release();
    },
    count: (method, glob) => {
      const match = picomatch(glob);
      return requests.filter((r) => r.method === method && match(r.path)).length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        held = [];
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };

  const server = http.createServer((req, res) => {
    const [path, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    const method = req.method ?? 'GET';
    const fault = faults.find((f) => f.left > 0 && (!f.method || f.method === method) && f.match(path));
    if (fault) fault.left -= 1;
    inFlight += 1;
    proxy.maxInFlight = Math.max(proxy.maxInFlight, inFlight);
    let finished = false;
    const done = () => {
      if (!finished) inFlight -= 1;
      finished = true;
    };
    // A client that gives up (its timeout) is no longer in flight, whatever the upstream does.
    res.on('close', done);

    if (fault?.drop) {
      requests.push({ method, path, query, at: Date.now(), outcome: 'drop' });
      req.resume();
      req.socket.destroy();
      done();
      return;
    }
    if (fault?.status) {
      requests.push({ method, path, query, at: Date.now(), outcome: 'status', status: fault.status });
      req.resume();
      req.on('end', () => {
        const body =
          fault.body === undefined ? '' : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
        res.writeHead(fault.status!, { 'content-type': 'application/json', ...fault.headers });
        res.end(body);
        done();
      });
      return;
    }
    const entry: ProxiedRequest = {
      method,
      path,
      query,
      at: Date.now(),
      outcome: fault?.hold || fault?.holdRequest ? 'held' : fault?.lose ? 'lost' : 'forwarded',
    };
    requests.push(entry);
    // Released by `release()` from now on, whether or not the upstream has answered yet.
    const released = fault?.hold ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve();
    const sent = fault?.holdRequest ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve();
    const forwardRequest = () => {
      const forward = http.request(
        {
          host: target.hostname,
          port: target.port,
          method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
          agent,
        },
        (upstreamRes) => {
          entry.status = upstreamRes.statusCode;
          const chunks: Buffer[] = [];
          upstreamRes.on('data', (c: Buffer) => chunks.push(c));
          upstreamRes.on('end', () => {
            const send = () => {
              if (res.destroyed) return done();
              if (fault?.lose) {
                req.socket.destroy();
                return done();
              }
              res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
              res.end(Buffer.concat(chunks));
              done();
            };
            void released.then(send);
          });
        },
      );
      forward.on('error', () => {
        if (!res.headersSent) res.writeHead(502).end();
        done();
      });
      req.pipe(forward);
    };
    // A held request is forwarded on release; its body waits, paused, in the socket meanwhile.
    void sent.then(forwardRequest);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
