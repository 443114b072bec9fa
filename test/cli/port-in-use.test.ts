import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// A port already taken is the first thing a new user meets (another `start`, another service on 8080).
describe('wms-sync on a port already in use', () => {
  const tmp = tempDir('port-in-use');
  afterAll(() => tmp.remove());

  it.each([
    ['serve', (port: number) => ['serve', '--port', String(port)]],
    ['start', (port: number) => ['start', '--port', String(port), '--emulator-port', '0', '--erp-port', '0']],
  ])('%s ends with one line and exit 1 instead of hanging with its workers open', async (name, args) => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const { code, stderr } = await runCli(args(port), { DATA_DIR: join(tmp.dir, name) }, 15_000);
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(`wms-sync ${name}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`);
    } finally {
      busy.close();
    }
  });
});
