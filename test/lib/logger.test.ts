import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { captureOutput } from '../support/cli.js';

function capture() {
  const out = captureOutput();
  return { logger: createLogger({ level: 'debug', destination: out.stream }), text: out.text };
}

describe('logger redaction', () => {
  const secrets = [
    'Basic d21zOnN1cGVyLXNlY3JldA==',
    'hunter2-password',
    'client-secret-value',
    'erp-token-value-123456',
    'eyJhbGciOi.jwt.token',
  ];

  it.each([
    ['request headers', { req: { headers: { authorization: secrets[0] } } }],
    ['top-level authorization', { authorization: secrets[0] }],
    ['nested headers', { headers: { authorization: secrets[0], cookie: 'session=abc' } }],
    ['a password field', { user: { password: secrets[1] } }],
    ['an OAuth form', { form: { client_secret: secrets[2], client_id: 'visible-id' } }],
    ['a connection config', { connection: { erpApiToken: secrets[3], wms: { clientSecret: secrets[2] } } }],
    ['a token response', { response: { access_token: secrets[4], token_type: 'Bearer' } }],
    ['webhook credentials', { conn: { webhookCredentials: [{ username: 'u', password: secrets[1] }] } }],
    [
      'a whole connection',
      { deps: { connection: { webhookCredentials: [{ password: secrets[1] }], erpApiToken: secrets[3] } } },
    ],
  ])('never writes secrets found in %s', (_label, obj) => {
    const { logger, text } = capture();
    logger.info(obj, 'something happened');
    logger.flush();
    const out = text();
    expect(out).toContain('something happened');
    for (const s of secrets) expect(out).not.toContain(s);
    expect(out).toContain('[redacted]');
  });

  it('keeps non-secret fields readable', () => {
    const { logger, text } = capture();
    logger.info({ form: { client_id: 'visible-id', client_secret: 'x' }, reqId: 'r-1' }, 'token');
    logger.flush();
    expect(text()).toContain('visible-id');
    expect(text()).toContain('r-1');
  });
});

describe('logger redaction at any depth', () => {
  const SECRET_KEYS = [
    'accessToken',
    'secret',
    'webhookPassword',
    'clientSecret',
    'password',
    'authorization',
    'token',
    'cookie',
  ];
  // The same names as they come from HTTP headers, OAuth forms and config files.
  const SPELLINGS = [
    'Authorization',
    'access_token',
    'refresh_token',
    'client_secret',
    'Cookie',
    'set-cookie',
    'x-api-key',
    'erpApiToken',
    'WEBHOOK_PASSWORD',
    'webhookCredentials',
  ];
  const step = fc.oneof(
    fc.constantFrom('data', 'connection', 'wms', 'headers', 'items', 'body', 'config'),
    fc.nat({ max: 3 }),
  );

  /** `{a: {b: [ , {key: secret}]}}`: the secret under `key`, below `path` (numbers are array slots). */
  function nest(path: (string | number)[], key: string, secret: string): unknown {
    let value: unknown = { [key]: secret, kept: 'visible-value' };
    for (const part of [...path].reverse()) {
      if (typeof part === 'number') {
        const array: unknown[] = Array.from({ length: part + 1 }, (_, i) => ({ slot: i }));
        array[part] = value;
        value = array;
      } else value = { [part]: value, beside: 'visible-neighbour' };
    }
    return value;
  }

  it('property: a secret under any secret key, 1 to 5 levels deep, in objects and arrays, is never written; its neighbours are', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 0, maxLength: 4 }),
        fc.constantFrom(...SECRET_KEYS, ...SPELLINGS),
        fc.nat(),
        (path, key, n) => {
          const secret = `s3cr3t-${n}-value`;
          const { logger, text } = capture();
          logger.info({ line: nest(path, key, secret) }, 'nested');
          logger.flush();
          const out = text();
          expect(out).toContain('"msg":"nested"');
          expect(out).not.toContain(secret);
          expect(out).toContain('[redacted]');
          expect(out).toContain('visible-value');
          if (path.some((p) => typeof p === 'string')) expect(out).toContain('visible-neighbour');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every listed key, at each depth from 1 to 5, and inside an array at each depth', () => {
    for (const key of SECRET_KEYS) {
      for (let depth = 1; depth <= 5; depth++) {
        for (const inArray of depth === 1 ? [false] : [false, true]) {
          const secret = `${key}-${depth}-${inArray}-secret`;
          // depth 3 in an array: {level1: {level2: [{slot: 0}, {<key>: secret}]}}
          let line: Record<string, unknown> = { [key]: secret };
          for (let level = depth - 1; level >= 1; level--)
            line = { [`level${level}`]: inArray && level === depth - 1 ? [{ slot: 0 }, line] : line };
          const { logger, text } = capture();
          logger.info(line, 'deep');
          logger.flush();
          expect(text(), `${key} at depth ${depth}${inArray ? ' in an array' : ''}`).not.toContain(secret);
          expect(text()).toContain('[redacted]');
        }
      }
    }
  });

  it("child loggers' bindings, errors and their causes are redacted too", () => {
    const { logger, text } = capture();
    const child = logger.child({ connection: { name: 'acme', wms: { clientSecret: 'bound-secret-1' } } });
    child.child({ reqId: 'r-9', auth: [{ token: 'bound-secret-2' }] }).info('bound');
    child.setBindings({ retry: { webhookPassword: 'bound-secret-3' } });
    child.info('rebound');
    const cause = Object.assign(new Error('token endpoint refused'), { body: { access_token: 'cause-secret-4' } });
    const err = Object.assign(new Error('push failed', { cause }), {
      request: { headers: { Authorization: 'Bearer error-secret-5' } },
    });
    logger.error({ err }, 'with an error');
    logger.error(err);
    logger.flush();
    const out = text();
    for (const secret of ['bound-secret-1', 'bound-secret-2', 'bound-secret-3', 'cause-secret-4', 'error-secret-5'])
      expect(out).not.toContain(secret);
    expect(out).toContain('"reqId":"r-9"');
    expect(out).toContain('"name":"acme"');
    expect(out).toContain('push failed');
    expect(out).toContain('token endpoint refused');
    expect(out).toMatch(/"type":"Error"/);
  });

  it("names that only contain a secret word are kept (token_type, tokenRequests, passwordPolicy), and the caller's object is not changed", () => {
    const { logger, text } = capture();
    const line = {
      response: { token_type: 'Bearer', expires_in: 3600, access_token: 'kept-out' },
      tokenRequests: 3,
      passwordPolicy: 'long',
    };
    logger.info(line, 'token');
    logger.flush();
    expect(JSON.parse(text())).toMatchObject({
      response: { token_type: 'Bearer', expires_in: 3600, access_token: '[redacted]' },
      tokenRequests: 3,
      passwordPolicy: 'long',
    });
    expect(line.response.access_token).toBe('kept-out');
  });

  it('however deep: pino writes every level (JSON.stringify), so the walk has no depth limit', () => {
    const { logger, text } = capture();
    let deep: Record<string, unknown> = { password: 'very-deep-secret', note: 'very-deep-note' };
    for (let level = 0; level < 40; level++) deep = { down: deep };
    logger.info({ deep }, 'deep');
    logger.flush();
    expect(text()).toContain('very-deep-note');
    expect(text()).not.toContain('very-deep-secret');
  });

  it('a cyclic object is written without hanging', () => {
    const { logger, text } = capture();
    const a: Record<string, unknown> = { name: 'a', password: 'cyclic-secret' };
    a.self = a;
    a.list = [a, { token: 'cyclic-secret-2' }];
    logger.info({ a }, 'cycle');
    logger.flush();
    expect(text()).toContain('"msg":"cycle"');
    expect(text()).not.toContain('cyclic-secret');
  });
});
