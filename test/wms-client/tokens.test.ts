import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { createWmsClient, WmsError } from '../../src/wms-client/index.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { type FaultyProxy, startFaultyProxy } from '../support/faulty-proxy.js';

const TOKEN = '/api/external/v1/auth/token';

// The token manager against the emulator's real token endpoints; the proxy counts what is sent.
describe('token manager', () => {
  // The emulator judges expiry by its own clock, the client by its own: each is moved on purpose.
  const wmsClock = new ManualClock(new Date('2026-03-02T08:00:00Z'));
  let wms: RunningEmulator;
  let proxy: FaultyProxy;
  const logLines: string[] = [];
  const logger = createLogger({ level: 'trace', destination: { write: (line: string) => void logLines.push(line) } });

  beforeAll(async () => {
    wms = await startEmulator({ clock: wmsClock });
    proxy = await startFaultyProxy(wms.url);
  });
  afterAll(async () => {
    await proxy.close();
    await wms.close();
  });

  const apiCalls = () => proxy.requests.filter((r) => r.path !== TOKEN && r.path.startsWith('/api/')).length;
  const tokenCalls = () => proxy.count('POST', TOKEN);

  async function newClient(tenant: string, clock = new ManualClock(wmsClock.nowMs()), maxConcurrency = 8) {
    const creds = await wms.tenant(tenant);
    const client = createWmsClient(wmsConnection(tenant, proxy.url, creds), {
      timeoutMs: 30_000,
      maxConcurrency,
      clock,
      logger,
    });
    await client.products.create({ externalCode: 'T-1', description: 'token test' });
    return { client, clock, creds };
  }

  it('requests a token once for a burst of 200 calls', async () => {
    const { creds } = await newClient('burst');
    // A fresh client (a restarted worker): nothing cached, 200 calls at once.
    const client = createWmsClient(wmsConnection('burst', proxy.url, creds), {
      timeoutMs: 30_000,
      maxConcurrency: 8,
      clock: systemClock,
    });
    const tokensBefore = tokenCalls();
    const callsBefore = apiCalls();
    await Promise.all(Array.from({ length: 200 }, () => client.products.get('T-1')));
    expect(tokenCalls() - tokensBefore).toBe(1);
    expect(apiCalls() - callsBefore).toBe(200);
    expect(client.tokens.stats.requests).toBe(1);
  });

  it('single flight: 50 concurrent callers wait on one token request and get the same token', async () => {
    const creds = await wms.tenant('flight');
    const client = createWmsClient(wmsConnection('flight', proxy.url, creds), {
      timeoutMs: 30_000,
      maxConcurrency: 8,
      clock: systemClock,
    });
    const before = tokenCalls();
    const tokens = await Promise.all(Array.from({ length: 50 }, () => client.tokens.token()));
    expect(new Set(tokens).size).toBe(1);
    expect(tokenCalls() - before).toBe(1);
  });

  it('refreshes 5 minutes before expiry (injectable clock), while the old token still works', async () => {
    const { client, clock } = await newClient('refresh');
    const first = await client.tokens.token();
    expect(client.tokens.expiresInSeconds()).toBe(3600);
    clock.advance((3600 - 300 - 1) * 1000);
    await client.products.get('T-1');
    expect(await client.tokens.token()).toBe(first);
    expect(client.tokens.stats.requests).toBe(1);
    clock.advance(2000);
    const before = tokenCalls();
    await client.products.get('T-1');
    expect(tokenCalls() - before).toBe(1);
    expect(await client.tokens.token()).not.toBe(first);
  });

  it('on a 401 it refreshes once and retries once, then succeeds', async () => {
    const { client } = await newClient('expired');
    await client.products.get('T-1');
    // The WMS's clock passes the token's expiry; ours does not notice, so the next call meets a 401.
    wmsClock.advance(3601 * 1000);
    const tokensBefore = tokenCalls();
    const callsBefore = apiCalls();
    expect((await client.products.get('T-1')).externalCode).toBe('T-1');
    expect(tokenCalls() - tokensBefore).toBe(1);
    expect(apiCalls() - callsBefore).toBe(2);
    expect(proxy.requests.slice(-3).map((r) => [r.path === TOKEN ? 'token' : 'api', r.status])).toEqual([
      ['api', 401],
      ['token', 200],
      ['api', 200],
    ]);
  });

  it('50 calls failing with the same expired token cause one refresh, not fifty', async () => {
    const { client } = await newClient('storm', undefined, 50);
    await client.products.get('T-1');
    wmsClock.advance(3601 * 1000);
    const before = tokenCalls();
    await Promise.all(Array.from({ length: 50 }, () => client.products.get('T-1')));
    expect(tokenCalls() - before).toBe(1);
  });

  it('credentials refused on refresh: a 401 WmsError with the WMS description, not retryable', async () => {
    const { client, creds } = await newClient('disabled');
    expect((await wms.control('POST', `/tenants/disabled/api-clients/${creds.clientId}/disable`)).status).toBe(200);
    const err = await client.products.get('T-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WmsError);
    expect(err).toMatchObject({ operation: 'token', status: 401, retryable: false, body: { error: 'invalid_client' } });
  });

  it('a token service that is not configured (503) is retryable', async () => {
    const down = await startEmulator({ tokenServiceDisabled: true });
    try {
      const creds = await down.tenant('down');
      const client = createWmsClient(wmsConnection('down', down.url, creds), {
        timeoutMs: 30_000,
        maxConcurrency: 2,
        clock: systemClock,
      });
      const err = await client.tokens.token().catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 503, retryable: true, body: { error: 'server_error' } });
      expect(client.tokens.stats.failures).toBe(1);
    } finally {
      await down.close();
    }
  });

  it('option B: OAuth2 JSON to {auth_url}/oauth/token, then the same calls', async () => {
    await wms.tenant('legacy');
    const oauth = await wms.oauthClient('legacy', 'https://wms.example/api');
    const connection = wmsConnection('legacy', proxy.url, oauth, {
      wmsAuthMode: 'oauth2',
      wmsAuthUrl: proxy.url,
      wmsAudience: oauth.audience,
    });
    const client = createWmsClient(connection, {
      timeoutMs: 30_000,
      maxConcurrency: 2,
      clock: new ManualClock(wmsClock.nowMs()),
      logger,
    });
    const before = proxy.count('POST', '/oauth/token');
    await client.products.create({ externalCode: 'B-1', description: 'via option B' });
    expect((await client.products.get('B-1')).description).toBe('via option B');
    expect(proxy.count('POST', '/oauth/token') - before).toBe(1);
    expect(client.tokens.expiresInSeconds()).toBe(86_400);
  });

  it("option B, password grant (the spec's declared flow, scope openid): one token for the user, then the same calls; its password nowhere but the body", async () => {
    await wms.tenant('owner-flow');
    const oauth = await wms.oauthClient('owner-flow', 'https://wms.example/api');
    const user = (await wms.control('POST', '/tenants/owner-flow/oauth-users', { username: 'erp@acme' })).body as {
      username: string;
      password: string;
    };
    const connection = wmsConnection('owner-flow', proxy.url, oauth, {
      wmsAuthMode: 'oauth2',
      wmsAuthUrl: proxy.url,
      wmsAudience: oauth.audience,
      wmsAuthGrant: 'password',
      wmsAuthUsername: user.username,
      wmsAuthPassword: user.password,
    });
    const client = createWmsClient(connection, {
      timeoutMs: 5000,
      maxConcurrency: 2,
      clock: new ManualClock(wmsClock.nowMs()),
      logger,
    });
    const before = proxy.count('POST', '/oauth/token');
    await client.products.create({ externalCode: 'PW-1', description: 'via the password flow' });
    expect((await client.products.get('PW-1')).description).toBe('via the password flow');
    expect(proxy.count('POST', '/oauth/token') - before).toBe(1);
    expect(client.tokens.expiresInSeconds()).toBe(86_400);
    for (const r of proxy.requests) expect(r.query).not.toContain(user.password);
    expect(logLines.join('')).not.toContain(user.password);

    // A wrong password: the identity provider's refusal, not retryable.
    const refused = createWmsClient(
      { ...connection, wms: { ...connection.wms, password: 'not-the-password' } },
      { timeoutMs: 5000, maxConcurrency: 2, clock: systemClock, logger },
    );
    const err = await refused.products.get('PW-1').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WmsError);
    expect(err).toMatchObject({ status: 403, retryable: false, body: { error: 'invalid_grant' } });
    expect(logLines.join('')).not.toContain('not-the-password');
  });

  it('secrets travel only in bodies: never in a URL, never in a log line', async () => {
    const { client, creds } = await newClient('secrets');
    const token = await client.tokens.token();
    await client.products.get('T-1');
    const tokenRequests = proxy.requests.filter((r) => r.path === TOKEN || r.path === '/oauth/token');
    expect(tokenRequests.length).toBeGreaterThan(0);
    for (const r of proxy.requests) {
      expect(r.query).not.toContain(creds.clientSecret);
      expect(r.query).not.toContain('client_secret');
    }
    const logs = logLines.join('');
    expect(logs).toContain('wms call');
    expect(logs).not.toContain(creds.clientSecret);
    expect(logs).not.toContain(token);
    expect(logs).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
  });
});
