import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/commands/index.js';
import { exitOf, runCli, spawnCli, waitForOutput } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/** One connection through the environment, so `serve` is ready (its values are never used to call out). */
const ONE_CONNECTION = {
  WMS_BASE_URL: 'http://127.0.0.1:9',
  WMS_CLIENT_ID: 'cli-client',
  WMS_CLIENT_SECRET: 'cli-secret-0123456789',
  WEBHOOK_USERNAME: 'wms-cli',
  WEBHOOK_PASSWORD: 'cli-password-0123',
  ERP_API_TOKEN: 'cli-erp-token-0123456789',
};

describe('wms-sync CLI', () => {
  const tmp = tempDir('cli');
  afterAll(() => tmp.remove());

  it('lists every command in --help', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const c of commands) expect(stdout).toContain(c.name);
  });

  it('exits 2 with the usage for no command or an unknown one', async () => {
    expect((await runCli([])).code).toBe(2);
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });

  it.each(commands.map((c) => c.name))('%s --help prints its usage and exits 0', async (name) => {
    const { code, stdout } = await runCli([name, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`Usage: wms-sync ${name}`));
  });

  it('exits 2 on an unknown option', async () => {
    const { code, stderr } = await runCli(['serve', '--bogus']);
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--bogus'");
  });

  it('stops at boot with one line naming a bad variable', async () => {
    const { code, stderr, stdout } = await runCli(['serve'], { PORT: 'abc', DATA_DIR: tmp.dir });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('wms-sync: Invalid configuration: PORT: expected an integer (got "abc")');
    expect(stdout).toBe('');
  });

  it('migrate creates and migrates the SQLite file', async () => {
    const dir = join(tmp.dir, 'migrate');
    const { code, stdout } = await runCli(['migrate'], { DATA_DIR: dir });
    expect(code).toBe(0);
    expect(stdout).toContain('database migrated');
    expect(existsSync(join(dir, 'wms-sync.db'))).toBe(true);
  });

  it('serve with an empty environment warns at boot which variables to set, /readyz reports it; exits 0 on SIGTERM', async () => {
    const child = spawnCli(['serve', '--port', '0'], { DATA_DIR: join(tmp.dir, 'serve'), LOG_LEVEL: 'info' });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    const [, url] = await waitForOutput(child, /"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
    const warning = output.split('\n').find((l) => l.includes('no connection configured'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning!)).toMatchObject({ level: 40 });
    expect(warning).toMatch(/WMS_BASE_URL.*WEBHOOK_USERNAME.*ERP_API_TOKEN \(or CONNECTIONS_FILE\)/);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      message: 'not ready: connections',
      details: { checks: { store: 'ok', queue: 'ok', connections: 'failing' } },
    });
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('serve answers /healthz, says which webhook URLs to give the WMS (PUBLIC_URL), and exits 0 on SIGTERM', async () => {
    const child = spawnCli(['serve', '--port', '0'], {
      DATA_DIR: join(tmp.dir, 'serve-public'),
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'https://sync.example.com/',
      ...ONE_CONNECTION,
    });
    const [, line, url] = await waitForOutput(child, /^(\{.*"url":"(http:\/\/127\.0\.0\.1:\d+)".*)\n/m);
    expect(JSON.parse(line!)).toMatchObject({
      msg: 'wms-sync listening',
      publicUrl: 'https://sync.example.com',
      webhooks: 'https://sync.example.com/webhooks/{connection}/{kind}',
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(((await (await fetch(`${url}/openapi.json`)).json()) as { servers?: unknown }).servers).toEqual([
      { url: 'https://sync.example.com', description: 'This wms-sync service' },
    ]);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('start prints where to look, serves the service and the emulator wired together, and exits 0 on SIGINT', async () => {
    const child = spawnCli(['start', '--port', '0', '--emulator-port', '0', '--erp-port', '0'], {
      DATA_DIR: join(tmp.dir, 'start'),
      PUBLIC_URL: 'https://demo.example.com',
    });
    const [summary, url, emulator] = await waitForOutput(
      child,
      /Service\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Emulator\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Press Ctrl\+C/,
    );
    // The sample ERP: its URL printed, answering, and the demo connection's ERP webhook pointing at it.
    const sampleErp = /Sample ERP\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(summary!)?.[1];
    expect(sampleErp).toBeDefined();
    expect(summary).toMatch(new RegExp(`ERP webhook\\s+${sampleErp}/webhooks\\s`));
    expect((await fetch(`${sampleErp}/messages`)).status).toBe(200);
    expect(summary).toContain(`${url}/docs`);
    // Not on the default ports: the printed demo command says where they are.
    expect(summary).toContain(`npx wms-sync demo --service ${url} --emulator ${emulator}`);
    expect(summary).toMatch(/ERP token\s+demo-[0-9a-f]{32}/);
    // The console: its URL and the admin token that opens it, kept with the demo secrets.
    expect(summary).toContain(`Console         ${url}/console`);
    const adminToken = /Admin token\s+(admin-[0-9a-f]{32})/.exec(summary)?.[1];
    expect(adminToken).toBeDefined();
    expect(JSON.parse(readFileSync(join(tmp.dir, 'start', 'demo-connection.json'), 'utf8'))).toMatchObject({
      adminToken,
    });
    const signIn = await fetch(`${url}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url! },
      body: new URLSearchParams({ token: adminToken! }),
    });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('set-cookie')).toMatch(/^wms_console_session=.+HttpOnly/);
    expect(
      (await fetch(`${url}/admin/v1/connections`, { headers: { authorization: `Bearer ${adminToken}` } })).status,
    ).toBe(200);
    expect(summary).toMatch(
      /Public URL\s+https:\/\/demo\.example\.com\s+webhooks: https:\/\/demo\.example\.com\/webhooks\/demo\/\{kind\}/,
    );
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${emulator}/_emulator/openapi.json`)).status).toBe(200);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
  });

  it('worker runs without HTTP and exits 0 on SIGTERM', async () => {
    const child = spawnCli(['worker'], { DATA_DIR: join(tmp.dir, 'worker'), LOG_LEVEL: 'info' });
    await waitForOutput(child, /wms-sync worker running/);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });
});
