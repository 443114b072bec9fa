import { afterAll, describe, expect, it } from 'vitest';
import { startEmulatorServer } from '../../src/emulator/index.js';
import { tempDir } from '../support/tmp.js';

const dir = tempDir('emulator-server');
afterAll(() => dir.remove());

const form = (id: string, secret: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ client_id: id, client_secret: secret }).toString(),
});

describe('startEmulatorServer over real HTTP', () => {
  it('listens on a free port and serves the seeded demo tenant', async () => {
    const server = await startEmulatorServer({
      seed: 'demo',
      demoClient: { clientId: 'me', clientSecret: 'my-secret' },
    });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const token = (await (
        await fetch(`${server.url}/api/external/v1/auth/token`, form('me', 'my-secret'))
      ).json()) as { access_token: string };
      const codes = await fetch(`${server.url}/api/external/v1/product-all-external-codes`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      });
      expect(await codes.json()).toBe('DEMO-001,DEMO-002,DEMO-003,DEMO-004');
    } finally {
      await server.close();
    }
  });

  it('with a data file, state and the generated signing key survive a restart; the seed is not applied twice', async () => {
    const dataFile = `${dir.dir}/emulator.db`;
    const first = await startEmulatorServer({ dataFile, seed: 'demo' });
    const token = (await (
      await fetch(`${first.url}/api/external/v1/auth/token`, form('demo-client', 'demo-secret'))
    ).json()) as { access_token: string };
    const auth = { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
    const created = await fetch(`${first.url}/api/external/v1/product`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ externalCode: 'KEEP', description: 'kept' }),
    });
    expect(created.status).toBe(200);
    await first.close();

    const second = await startEmulatorServer({ dataFile, seed: 'demo' });
    try {
      // the token issued before the restart still verifies: same key, same client generation
      const res = await fetch(`${second.url}/api/external/v1/product-all-external-codes`, { headers: auth });
      expect(res.status).toBe(200);
      expect(await res.json()).toBe('DEMO-001,DEMO-002,DEMO-003,DEMO-004,KEEP');
    } finally {
      await second.close();
    }
  });

  it('without a data file, a restart starts empty and old tokens are refused', async () => {
    const first = await startEmulatorServer({ seed: 'demo' });
    const token = (await (
      await fetch(`${first.url}/api/external/v1/auth/token`, form('demo-client', 'demo-secret'))
    ).json()) as { access_token: string };
    await first.close();
    const second = await startEmulatorServer({ seed: 'demo' });
    try {
      const res = await fetch(`${second.url}/api/external/v1/product-all-external-codes`, {
        headers: { authorization: `Bearer ${token.access_token}` },
      });
      expect(res.status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
