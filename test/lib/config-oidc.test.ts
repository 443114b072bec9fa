import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/lib/config.js';

const base = {
  ADMIN_TOKEN: 'admin-token-0123456789abcdef',
  OIDC_ISSUER: 'https://id.example.com',
  OIDC_CLIENT_ID: 'wms-sync',
  OIDC_CLIENT_SECRET: 'the-client-secret-xyz',
  OIDC_ALLOWED_DOMAINS: 'example.com',
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

describe('config: OpenID Connect sign-in (OIDC_*)', () => {
  it('is off without OIDC_ISSUER', () => {
    expect(loadConfig({ ADMIN_TOKEN: base.ADMIN_TOKEN }).oidc).toBeUndefined();
  });

  it('reads the issuer, the client, the allowed domains and groups (trimmed, lowercase domains), the label and scopes with their defaults', () => {
    const oidc = loadConfig({
      ...base,
      OIDC_ALLOWED_DOMAINS: ' Example.com, @ops.example.org ',
      OIDC_ALLOWED_GROUPS: 'ops, admins',
    }).oidc;
    expect(oidc).toEqual({
      issuer: 'https://id.example.com',
      clientId: 'wms-sync',
      clientSecret: 'the-client-secret-xyz',
      allowedDomains: ['example.com', 'ops.example.org'],
      allowedGroups: ['ops', 'admins'],
      name: 'single sign-on',
      scopes: 'openid email profile',
    });
    expect(loadConfig({ ...base, OIDC_NAME: 'Acme SSO', OIDC_SCOPES: 'openid email groups' }).oidc).toMatchObject({
      name: 'Acme SSO',
      scopes: 'openid email groups',
    });
  });

  it('refuses a configuration that would let any account at the provider in, or that cannot work', () => {
    expect(failure({ ...base, OIDC_ALLOWED_DOMAINS: '' })).toBe(
      'Invalid configuration: OIDC_ALLOWED_DOMAINS: set it or OIDC_ALLOWED_GROUPS: without either, every account at the provider could sign in',
    );
    expect(failure({ ...base, OIDC_CLIENT_ID: '' })).toBe(
      'Invalid configuration: OIDC_CLIENT_ID: required when OIDC_ISSUER is set',
    );
    expect(failure({ OIDC_CLIENT_ID: 'x' })).toBe(
      'Invalid configuration: OIDC_ISSUER: required when OIDC_CLIENT_ID is set',
    );
    expect(failure({ ...base, OIDC_ISSUER: 'http://id.example.com' })).toBe(
      'Invalid configuration: OIDC_ISSUER: expected an https URL (http only on a loopback address)',
    );
    expect(loadConfig({ ...base, OIDC_ISSUER: 'http://127.0.0.2:4000' }).oidc?.issuer).toBe('http://127.0.0.2:4000');
    expect(failure({ ...base, OIDC_ALLOWED_DOMAINS: 'example.com,*.example.org' })).toBe(
      'Invalid configuration: OIDC_ALLOWED_DOMAINS: expected e-mail domains such as example.com (got "*.example.org")',
    );
    expect(failure({ ...base, OIDC_SCOPES: 'email profile' })).toBe(
      'Invalid configuration: OIDC_SCOPES: expected the openid scope among them',
    );
    expect(failure({ ...base, OIDC_SCOPES: 'openid  email' })).toMatch(
      /^Invalid configuration: OIDC_SCOPES: expected scopes separated by one space/,
    );
  });

  it('never shows the client secret in an error', () => {
    const message = failure({ ...base, OIDC_CLIENT_SECRET: '', OIDC_ISSUER: 'not a url' });
    expect(message).toMatch(/^Invalid configuration: OIDC_ISSUER/);
    expect(failure({ ...base, OIDC_ALLOWED_DOMAINS: '' })).not.toContain(base.OIDC_CLIENT_SECRET);
  });
});
