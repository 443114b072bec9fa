import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder to a real server (e.g. Postgres) that a test can cut and restore, to see how
 * the service behaves when its database goes away and comes back, without stopping the shared
 * database other suites are using.
 */
export class TcpProxy {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    this.#server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      this.#server!.once('error', reject);
      this.#server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.#server.address() as AddressInfo).port;
    return this.port;
  }

  /** Drops every open connection and refuses new ones, like a database that went down. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** Accepts connections again on the same port. */
  async restore(): Promise<void> {
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
