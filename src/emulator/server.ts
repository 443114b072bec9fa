import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createEmulator, type Emulator, type EmulatorOptions } from './emulator.js';

export interface EmulatorServerOptions extends EmulatorOptions {
  port?: number;
  host?: string;
  /** Serve this emulator instead of creating one (tests that hold its clock or state). */
  emulator?: Emulator;
}

export interface EmulatorServer {
  url: string;
  port: number;
  emulator: Emulator;
  /** Stops listening, drops open connections and closes the emulator's database. */
  close(): Promise<void>;
}

/** The emulator over real HTTP (@hono/node-server); port 0 picks a free port. */
export async function startEmulatorServer(options: EmulatorServerOptions = {}): Promise<EmulatorServer> {
  const emulator = options.emulator ?? createEmulator(options);
  const host = options.host ?? '127.0.0.1';
  const { server, address } = await new Promise<{ server: ReturnType<typeof serve>; address: AddressInfo }>((resolve, reject) => {
    const s = serve({ fetch: emulator.app.fetch, port: options.port ?? 0, hostname: host }, (info) => resolve({ server: s, address: info }));
    s.once('error', reject);
  });
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    emulator,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          emulator.close();
          if (err) reject(err);
          else resolve();
        });
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
