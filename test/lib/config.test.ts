import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, envSchema, loadConfig } from '../../src/lib/config.js';
import { tempDir } from '../support/tmp.js';

const connectionEnv = {
  WMS_BASE_URL: 'https://wms.example.com',
  WMS_CLIENT_ID: 'client',
  WMS_CLIENT_SECRET: 'secret',
  WEBHOOK_USERNAME: 'wms',
  WEBHOOK_PASSWORD: 'password-1',
  ERP_API_TOKEN: 'erp-token-0123456789',
};

function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('config', () => {
  const tmp = tempDir('config');
  afterAll(() => tmp.remove());

  it('has the documented defaults: loopback, 8080, SQLite under ./data, no connection', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'info',
      database: { kind: 'sqlite', file: join('./data', 'wms-sync.db'), synchronous: 'normal' },
      bodyLimitBytes: 10 * 1024 * 1024,
      connections: [],
    });
  });

  it('selects Postgres when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/db',
      poolSize: 10,
      schema: 'public',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT: expected an integer \(got "eighty"\)$/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT: /],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL: /],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL: expected a postgres:\/\/ URL/],
    [{ BODY_LIMIT_BYTES: '-1' }, /^Invalid configuration: BODY_LIMIT_BYTES: /],
    [
      { EMULATOR_TOKEN_SERVICE_DISABLED: 'maybe' },
      /^Invalid configuration: EMULATOR_TOKEN_SERVICE_DISABLED: expected true or false/,
    ],
  ])('refuses %o with one line naming the variable', (env, message) => {
    const text = failure(env as Record<string, string>);
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  it.each(['ADMIN_TOKEN', 'METRICS_TOKEN', 'DATABASE_URL'])(
    'never echoes the rejected value of %s, a secret',
    (variable) => {
      const value = variable === 'DATABASE_URL' ? 'mysql://root:hunter2-secret@db/x' : 'short';
      const text = failure({ [variable]: value });
      expect(text).toMatch(new RegExp(`^Invalid configuration: ${variable}: `));
      expect(text).not.toContain(value);
      expect(text).not.toContain('hunter2');
    },
  );

  it('builds one connection from env variables', () => {
    const [c] = loadConfig({
      ...connectionEnv,
      CONNECTION_NAME: 'acme',
      WMS_BASE_URL: 'https://wms.example.com/',
    }).connections;
    expect(c).toEqual({
      name: 'acme',
      wms: {
        baseUrl: 'https://wms.example.com',
        authMode: 'client',
        clientId: 'client',
        clientSecret: 'secret',
        authGrant: 'client_credentials',
      },
      webhookCredentials: [{ username: 'wms', password: 'password-1' }],
      erpApiToken: 'erp-token-0123456789',
      erpCloseAck: 'async',
    });
  });

  it('names the missing connection variable', () => {
    const { WMS_CLIENT_SECRET: _omit, ...rest } = connectionEnv;
    expect(failure(rest)).toBe(
      'Invalid configuration: WMS_CLIENT_SECRET: required when a connection is configured through the environment',
    );
  });

  it('requires WMS_AUTH_URL and WMS_AUDIENCE for oauth2', () => {
    expect(failure({ ...connectionEnv, WMS_AUTH_MODE: 'oauth2' })).toMatch(
      /^Invalid configuration: WMS_AUTH_URL: required when the auth mode is oauth2/,
    );
    const c = loadConfig({
      ...connectionEnv,
      WMS_AUTH_MODE: 'oauth2',
      WMS_AUTH_URL: 'https://id.example.com',
      WMS_AUDIENCE: 'https://wms',
    });
    expect(c.connections[0]!.wms).toMatchObject({
      authMode: 'oauth2',
      authUrl: 'https://id.example.com',
      audience: 'https://wms',
    });
  });

  it("option B's password grant: needs oauth2, a username and a password, from env or CONNECTIONS_FILE", () => {
    const oauth2 = {
      ...connectionEnv,
      WMS_AUTH_MODE: 'oauth2',
      WMS_AUTH_URL: 'https://id.example.com',
      WMS_AUDIENCE: 'https://wms',
    };
    const c = loadConfig({
      ...oauth2,
      WMS_AUTH_GRANT: 'password',
      WMS_AUTH_USERNAME: 'erp@acme',
      WMS_AUTH_PASSWORD: 'pw-of-erp',
    });
    expect(c.connections[0]!.wms).toMatchObject({
      authMode: 'oauth2',
      authGrant: 'password',
      username: 'erp@acme',
      password: 'pw-of-erp',
    });
    expect(failure({ ...oauth2, WMS_AUTH_GRANT: 'password', WMS_AUTH_USERNAME: 'erp@acme' })).toBe(
      'Invalid configuration: WMS_AUTH_PASSWORD: required when the auth grant is password',
    );
    expect(
      failure({ ...connectionEnv, WMS_AUTH_GRANT: 'password', WMS_AUTH_USERNAME: 'u', WMS_AUTH_PASSWORD: 'p' }),
    ).toMatch(/^Invalid configuration: WMS_AUTH_GRANT: the password grant is option B/);
    expect(failure({ ...oauth2, WMS_AUTH_GRANT: 'implicit' })).toMatch(/^Invalid configuration: WMS_AUTH_GRANT: /);
    // A refused setting never echoes the password.
    expect(
      failure({ ...connectionEnv, WMS_AUTH_GRANT: 'password', WMS_AUTH_USERNAME: 'u', WMS_AUTH_PASSWORD: 'pw-of-erp' }),
    ).not.toContain('pw-of-erp');

    const file = join(tmp.dir, 'password-grant.json');
    const entry = {
      name: 'acme',
      wmsBaseUrl: 'https://wms.example.com',
      wmsAuthMode: 'oauth2',
      wmsAuthUrl: 'https://id.example.com',
      wmsAudience: 'https://wms',
      wmsAuthGrant: 'password',
      wmsAuthUsername: 'erp@acme',
      wmsAuthPassword: 'pw-of-erp',
      wmsClientId: 'c',
      wmsClientSecret: 's',
      webhookUsername: 'u',
      webhookPassword: 'password-1',
      erpApiToken: 'token-for-acme-0123456789',
    };
    writeFileSync(file, JSON.stringify([entry]));
    expect(loadConfig({ CONNECTIONS_FILE: file }).connections[0]!.wms).toMatchObject({
      authGrant: 'password',
      username: 'erp@acme',
      password: 'pw-of-erp',
    });
    writeFileSync(file, JSON.stringify([{ ...entry, wmsAuthUsername: undefined }]));
    expect(failure({ CONNECTIONS_FILE: file })).toBe(
      'Invalid configuration: CONNECTIONS_FILE: [0].wmsAuthUsername: required when the auth grant is password',
    );
  });

  it('accepts a second webhook credential for rotation, and only as a pair', () => {
    const c = loadConfig({
      ...connectionEnv,
      WEBHOOK_PREVIOUS_USERNAME: 'old',
      WEBHOOK_PREVIOUS_PASSWORD: 'old-password',
    });
    expect(c.connections[0]!.webhookCredentials).toEqual([
      { username: 'wms', password: 'password-1' },
      { username: 'old', password: 'old-password' },
    ]);
    expect(failure({ ...connectionEnv, WEBHOOK_PREVIOUS_USERNAME: 'old' })).toMatch(/WEBHOOK_PREVIOUS_PASSWORD/);
  });

  it('refuses a short ERP token and a bad connection name', () => {
    expect(failure({ ...connectionEnv, ERP_API_TOKEN: 'short' })).toMatch(
      /^Invalid configuration: ERP_API_TOKEN: expected at least 16 characters$/,
    );
    expect(failure({ ...connectionEnv, CONNECTION_NAME: 'Has Spaces' })).toMatch(
      /^Invalid configuration: CONNECTION_NAME: /,
    );
  });

  it('reads several connections from CONNECTIONS_FILE and points at the bad entry', () => {
    const entry = (name: string) => ({
      name,
      wmsBaseUrl: 'https://wms.example.com',
      wmsClientId: 'c',
      wmsClientSecret: 's',
      webhookUsername: 'u',
      webhookPassword: 'password-1',
      erpApiToken: `token-for-${name}-0123456789`,
    });
    const file = join(tmp.dir, 'connections.json');
    writeFileSync(file, JSON.stringify([entry('a'), entry('b')]));
    expect(loadConfig({ CONNECTIONS_FILE: file }).connections.map((c) => c.name)).toEqual(['a', 'b']);

    writeFileSync(file, JSON.stringify([entry('a'), { ...entry('b'), wmsBaseUrl: 'nope' }]));
    expect(failure({ CONNECTIONS_FILE: file })).toBe(
      'Invalid configuration: CONNECTIONS_FILE: [1].wmsBaseUrl: expected an http(s) URL',
    );
    writeFileSync(file, JSON.stringify([entry('a'), entry('a')]));
    expect(failure({ CONNECTIONS_FILE: file })).toMatch(/connection name "a" appears twice/);
    // The ERP token selects the connection: shared, one ERP would read and change the other's records.
    writeFileSync(file, JSON.stringify([entry('a'), { ...entry('b'), erpApiToken: entry('a').erpApiToken }]));
    const shared = failure({ CONNECTIONS_FILE: file });
    expect(shared).toBe(
      'Invalid configuration: CONNECTIONS_FILE: connections "a" and "b" have the same erpApiToken; each needs its own',
    );
    expect(shared).not.toContain(entry('a').erpApiToken);
    writeFileSync(file, '{not json');
    expect(failure({ CONNECTIONS_FILE: file })).toMatch(
      /^Invalid configuration: CONNECTIONS_FILE: cannot read .* as JSON/,
    );
    expect(failure({ CONNECTIONS_FILE: join(tmp.dir, 'missing.json') })).toMatch(
      /^Invalid configuration: CONNECTIONS_FILE: cannot read/,
    );
  });

  it('.env.example lists exactly the variables of the schema', () => {
    const text = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    const listed = [...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(Object.keys(envSchema.shape).sort());
  });

  it('treats empty values as unset, as shells and .env files produce them', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8080);
  });
});
