import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorMatcher } from '../../src/admin/auth.js';
import { parseAdminTokens } from '../../src/lib/admin-tokens.js';
import { ConfigError, loadConfig } from '../../src/lib/config.js';
import { sha256Hex } from '../../src/lib/crypto.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { admin } from './support.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdefgh';
const SHARED = 'admin-token-0123456789abcdef';

describe('named operators: ADMIN_TOKENS', () => {
  it('reads name:token and name:sha256:<hex>; ADMIN_TOKEN is operator "admin"; only hashes are kept', () => {
    const parsed = parseAdminTokens(`alice:${ALICE}, bob:sha256:${sha256Hex(BOB).toUpperCase()}`, SHARED);
    expect(parsed.tokens).toEqual([
      { name: 'admin', sha256: sha256Hex(SHARED) },
      { name: 'alice', sha256: sha256Hex(ALICE) },
      { name: 'bob', sha256: sha256Hex(BOB) },
    ]);
    expect(JSON.stringify(parsed.tokens)).not.toContain(ALICE);
    expect(parsed.sessionSecret).toBeDefined();
    expect(parsed.sessionSecret).not.toContain(ALICE);
    // ADMIN_TOKEN alone derives the session key as it always did; hashes alone give no secret to derive from.
    expect(parseAdminTokens(undefined, SHARED).sessionSecret).toBe(SHARED);
    expect(parseAdminTokens(`bob:sha256:${sha256Hex(BOB)}`, undefined).sessionSecret).toBeUndefined();
  });

  it('refuses a bad entry with a message naming it, never the token', () => {
    const refused = (raw: string) => {
      try {
        loadConfig({ ADMIN_TOKENS: raw });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused('alice')).toMatch(/ADMIN_TOKENS: entry 1: expected name:token/);
    expect(refused('alice:short')).toMatch(/operator "alice": expected a token of at least 16/);
    expect(refused(`alice:${ALICE},alice:${BOB}`)).toMatch(/operator "alice" appears twice/);
    expect(refused(`alice:${ALICE},bob:${ALICE}`)).toMatch(/same token/);
    expect(refused(`al ice:${ALICE}`)).not.toContain(ALICE);
  });

  it('matches a token to its operator, and nothing else (fast-check)', () => {
    const match = operatorMatcher(parseAdminTokens(`alice:${ALICE},bob:sha256:${sha256Hex(BOB)}`, SHARED).tokens);
    expect(match(ALICE)).toBe('alice');
    expect(match(BOB)).toBe('bob');
    expect(match(SHARED)).toBe('admin');
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(match(s)).toBe(s === ALICE ? 'alice' : s === BOB ? 'bob' : s === SHARED ? 'admin' : undefined);
      }),
    );
  });
});

describe('admin API with named operators', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      label: 'admin-operators',
      env: { ADMIN_TOKEN: SHARED, ADMIN_TOKENS: `alice:${ALICE},bob:sha256:${sha256Hex(BOB)}` },
      connections: [testConnection('acme')],
    });
  });
  afterAll(async () => svc.close());

  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  it('each operator signs with their own token, and the audit trail names who acted', async () => {
    for (const token of [ALICE, BOB, SHARED])
      expect((await admin(svc, 'GET', '/admin/v1/connections', as(token))).status).toBe(200);
    const started = await admin(svc, 'POST', '/admin/v1/connections/acme/reconciliations', as(ALICE));
    expect(started.status).toBeLessThan(300);
    const missing = await admin(svc, 'POST', '/admin/v1/events/999999/retry', as(BOB));
    expect(missing.status).toBe(404);
    const page = await admin(svc, 'GET', '/admin/v1/audit?limit=10', as(SHARED));
    expect(page.status).toBe(200);
    expect(
      page.body.entries.map((e: { operator: string; action: string; outcome: string }) => [
        e.operator,
        e.action,
        e.outcome,
      ]),
    ).toEqual([
      ['bob', 'event.retry', 'refused'],
      ['alice', 'reconciliation.start', 'ok'],
    ]);
    expect(page.body.entries[0]).toMatchObject({ channel: 'api', target: 'event:999999' });
    expect(page.body.entries[1]).toMatchObject({ connection: 'acme' });
    // Filters and keyset pages.
    const bobs = await admin(svc, 'GET', '/admin/v1/audit?operator=bob', as(SHARED));
    expect(bobs.body.entries).toHaveLength(1);
    const first = await admin(svc, 'GET', '/admin/v1/audit?limit=1', as(SHARED));
    expect(first.body.nextBefore).toBe(first.body.entries[0].id);
    const second = await admin(svc, 'GET', `/admin/v1/audit?limit=1&before=${first.body.nextBefore}`, as(SHARED));
    expect(second.body.entries[0].operator).toBe('alice');
    expect(second.body.nextBefore).toBeNull();
  });

  it('reads of the API are not actions; a wrong token gets 401 and records nothing', async () => {
    const before = (await svc.deps.store.audit.list({ limit: 100 })).length;
    expect((await admin(svc, 'POST', '/admin/v1/events/1/retry', as('not-a-token-of-anyone-here'))).status).toBe(401);
    expect((await admin(svc, 'GET', '/admin/v1/audit?outcome=maybe', as(ALICE))).status).toBe(400);
    expect((await svc.app.request('/admin/v1/audit')).status).toBe(401);
    expect((await svc.deps.store.audit.list({ limit: 100 })).length).toBe(before);
  });

  it('is in the OpenAPI document: the audit list and the override', async () => {
    const doc = (await (await svc.app.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(doc.paths['/admin/v1/audit']).toBeDefined();
    expect(doc.paths['/admin/v1/events/{id}/override']).toBeDefined();
  });
});
