import { listen } from '../lib/listen.js';
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
  let http;
  try {
    http = await listen(emulator.app.fetch, { port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  } catch (err) {
    emulator.close();
    throw err;
  }
  const server = http;
  return {
    url: server.url,
    port: server.port,
    emulator,
    close: async () => {
      // An emulator holds no request worth waiting for: open connections are dropped at once.
      await server.close(0);
      emulator.close();
    },
  };
}
