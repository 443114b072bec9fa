import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { captureOutput } from '../support/cli.js';

function capture() {
  const out = captureOutput();
  return { logger: createLogger({ level: 'debug', destination: out.stream }), text: out.text };
}

describe('logger redaction', () => {
  const secrets = ['Basic d21zOnN1cGVyLXNlY3JldA==', 'hunter2-password', 'client-secret-value', 'erp-token-value-123456', 'eyJhbGciOi.jwt.token'];

  it.each([
    ['request headers', { req: { headers: { authorization: secrets[0] } } }],
    ['top-level authorization', { authorization: secrets[0] }],
    ['nested headers', { headers: { authorization: secrets[0], cookie: 'session=abc' } }],
    ['a password field', { user: { password: secrets[1] } }],
    ['an OAuth form', { form: { client_secret: secrets[2], client_id: 'visible-id' } }],
    ['a connection config', { connection: { erpApiToken: secrets[3], wms: { clientSecret: secrets[2] } } }],
    ['a token response', { response: { access_token: secrets[4], token_type: 'Bearer' } }],
    ['webhook credentials', { conn: { webhookCredentials: [{ username: 'u', password: secrets[1] }] } }],
    ['a whole connection', { deps: { connection: { webhookCredentials: [{ password: secrets[1] }], erpApiToken: secrets[3] } } }],
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
