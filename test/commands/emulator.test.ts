import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { captureOutput } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';

const dir = tempDir('cli-emulator');
afterAll(() => dir.remove());

/** Runs `wms-sync emulator …` in-process until `stop()` is called, as SIGTERM would. */
function run(args: string[], env: Record<string, string> = {}) {
  const out = captureOutput();
  const err = captureOutput();
  let stop!: () => void;
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => (stop = () => resolve('SIGTERM')));
  const exit = main(['emulator', ...args], {
    env: { LOG_LEVEL: 'silent', ...env },
    stdout: out.stream,
    stderr: err.stream,
    stopSignal,
  });
  const url = async () =>
    await until(() => /listening on (http:\/\/\S+)/.exec(out.text())?.[1], {
      timeoutMs: 10_000,
      message: 'emulator did not start',
    });
  return { exit, stop, url, out: out.text, err: err.text };
}

const form = (id: string, secret: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ client_id: id, client_secret: secret }).toString(),
});

describe('wms-sync emulator', () => {
  it('--help prints the usage and exits 0', async () => {
    const r = run(['--help']);
    expect(await r.exit).toBe(0);
    expect(r.out()).toContain('Usage: wms-sync emulator [--port 8090]');
  });

  it('exits 2 with a message for an unknown option, a bad port or an unknown seed', async () => {
    for (const args of [['--verbose'], ['--port', 'eighty'], ['--port', '70000'], ['--seed', 'full'], ['extra']]) {
      const r = run(args);
      expect(await r.exit, args.join(' ')).toBe(2);
      expect(r.err()).toMatch(/^wms-sync emulator: /);
    }
  });

  it('exits 1 naming the variable when the configuration is wrong', async () => {
    const r = run(['--port', '0'], { EMULATOR_TOKEN_SERVICE_DISABLED: 'maybe' });
    expect(await r.exit).toBe(1);
    expect(r.err()).toContain('EMULATOR_TOKEN_SERVICE_DISABLED');
  });

  it('serves the demo tenant with the configured demo credentials until stopped, then exits 0', async () => {
    const r = run(['--port', '0', '--seed', 'demo'], {
      EMULATOR_DEMO_CLIENT_ID: 'cli-demo',
      EMULATOR_DEMO_CLIENT_SECRET: 'cli-secret',
    });
    const url = await r.url();
    const token = await fetch(`${url}/api/external/v1/auth/token`, form('cli-demo', 'cli-secret'));
    expect(token.status).toBe(200);
    expect(r.out()).toContain('demo tenant');
    expect(r.out()).not.toContain('cli-secret');
    r.stop();
    expect(await r.exit).toBe(0);
    expect(r.out()).toContain('WMS emulator stopped (SIGTERM)');
    await expect(fetch(`${url}/_emulator/tenants`)).rejects.toThrow();
  });

  it('answers 503 on endpoint 21 when EMULATOR_TOKEN_SERVICE_DISABLED=true, and requires EMULATOR_ADMIN_TOKEN', async () => {
    const r = run(['--port', '0', '--seed', 'demo'], {
      EMULATOR_TOKEN_SERVICE_DISABLED: 'true',
      EMULATOR_ADMIN_TOKEN: 'cli-admin-token',
    });
    const url = await r.url();
    expect((await fetch(`${url}/api/external/v1/auth/token`, form('demo-client', 'demo-secret'))).status).toBe(503);
    expect((await fetch(`${url}/_emulator/tenants`)).status).toBe(401);
    expect(
      (await fetch(`${url}/_emulator/tenants`, { headers: { authorization: 'Bearer cli-admin-token' } })).status,
    ).toBe(200);
    r.stop();
    expect(await r.exit).toBe(0);
  });

  it('--data keeps state across runs', async () => {
    const data = `${dir.dir}/nested/emulator.db`;
    const first = run(['--port', '0', '--seed', 'demo', '--data', data]);
    const url = await first.url();
    const { access_token } = (await (
      await fetch(`${url}/api/external/v1/auth/token`, form('demo-client', 'demo-secret'))
    ).json()) as { access_token: string };
    const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    expect(
      (
        await fetch(`${url}/api/external/v1/delivery-point`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ externalCode: 'KEPT', active: true, name: 'Kept' }),
        })
      ).status,
    ).toBe(200);
    first.stop();
    expect(await first.exit).toBe(0);

    const second = run(['--port', '0', '--data', data]);
    const again = await second.url();
    const res = await fetch(`${again}/api/external/v1/delivery-point/KEPT`, { headers });
    expect(res.status).toBe(200);
    second.stop();
    expect(await second.exit).toBe(0);
  });

  it('exits 1 when the port is taken', async () => {
    const first = run(['--port', '0']);
    const port = new URL(await first.url()).port;
    const second = run(['--port', port]);
    expect(await second.exit).toBe(1);
    expect(second.err()).toContain('cannot start');
    first.stop();
    expect(await first.exit).toBe(0);
  });
});
