import { writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

async function demo(args: string[], env: Record<string, string> = {}) {
  return runMain(['demo', ...args], { LOG_LEVEL: 'silent', ...env });
}

/** A port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// What a new user meets when `wms-sync start` is not running, or runs on other ports.
describe('wms-sync demo without a running start', () => {
  it('names the URL it cannot reach and how to point it elsewhere, in one line, exit 1', async () => {
    const [service, emulator] = [`http://127.0.0.1:${await closedPort()}`, `http://127.0.0.1:${await closedPort()}`];
    const { code, err } = await demo([
      '--service',
      service,
      '--emulator',
      emulator,
      '--token',
      'demo-token-0123456789',
    ]);
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toContain(`cannot reach ${service} (ECONNREFUSED)`);
    expect(err).toMatch(/wms-sync start.*--service/);
  });

  it('a --service or --emulator that is not an http(s) URL is a usage error (exit 2)', async () => {
    for (const args of [
      ['--service', 'nope'],
      ['--emulator', 'ftp://127.0.0.1:1'],
    ]) {
      const { code, err } = await demo([...args, '--token', 'demo-token-0123456789']);
      expect(code).toBe(2);
      expect(err.split('\n')[0]).toBe(`wms-sync: ${args[0]} expects an http(s) URL, got "${args[1]}"`);
    }
  });

  it('a damaged DATA_DIR/demo-connection.json is named, with the way out, in one line', async () => {
    const tmp = tempDir('demo-secrets');
    try {
      const file = join(tmp.dir, 'demo-connection.json');
      writeFileSync(file, '{"webhookPassword": ');
      const { code, err } = await demo([], { DATA_DIR: tmp.dir });
      expect(code).toBe(1);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toContain(`${file} is not valid JSON`);
      expect(err).toContain('wms-sync start --fresh');
    } finally {
      tmp.remove();
    }
  });
});
