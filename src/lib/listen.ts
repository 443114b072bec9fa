import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface Listening {
  server: Server;
  port: number;
  /** Base URL to reach the server, e.g. http://127.0.0.1:8080 */
  url: string;
  /**
   * Stops accepting connections, closes idle keep-alive ones, lets requests in flight finish, and
   * after `graceMs` closes whatever is still open.
   */
  close(graceMs?: number): Promise<void>;
}

/** Serves a fetch handler (a Hono app's `fetch`) on host:port; port 0 picks a free port. */
export function listen(
  fetch: (req: Request) => Response | Promise<Response>,
  options: { port: number; host: string },
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: options.port, hostname: options.host }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      const urlHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : host;
      resolve({
        server,
        port,
        url: `http://${urlHost}:${port}`,
        close: (graceMs = 5000) =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), graceMs);
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
