import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { captureOutput } from '../support/cli.js';
import { basicAuth, startTestService, type TestService, testConnection } from '../support/service.js';
import { authOf, postWebhook, uniquePayload, WEBHOOK_KINDS } from './support.js';

/** Who may send webhooks: Basic credentials per connection, two at once while rotating; nothing stored otherwise. */
export function webhooksSecuritySuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`webhook routes, credentials (${dialect})`, () => {
    let svc: TestService;
    const logs = captureOutput();
    const acme = testConnection('acme');
    // Mid-rotation: the new credentials and the previous ones are both valid.
    const globex = testConnection('globex', {
      webhookPreviousUsername: 'wms-globex-old',
      webhookPreviousPassword: 'old-password-123',
    });

    beforeAll(async () => {
      svc = await startTestService({
        label: 'wh-security',
        dialect,
        connections: [acme, globex],
        logger: createLogger({ level: 'debug', destination: logs.stream }),
      });
    });
    afterAll(async () => {
      await svc.close();
    });

    const stored = async (connection: string) => (await svc.deps.store.inbox.list({ connection, limit: 1000 })).length;

    const refused: [string, string | null][] = [
      ['no Authorization header', null],
      ['a wrong password', basicAuth('wms-acme', 'wrong-password')],
      ['an unknown user with the right password', basicAuth('someone', acme.webhookCredentials[0]!.password)],
      ['another connection’s credentials', authOf(globex)],
      ['a bearer token', `Bearer ${acme.erpApiToken}`],
      ['Basic with garbage', 'Basic !!!not-base64!!!'],
      ['an empty Basic', 'Basic '],
    ];
    for (const kind of WEBHOOK_KINDS) {
      for (const [what, auth] of refused) {
        it(`${kind}: ${what} → 401 with a Basic challenge, nothing stored`, async () => {
          const before = await stored('acme');
          const res = await postWebhook(svc.app, acme, kind, uniquePayload(kind), { auth });
          expect(res.status).toBe(401);
          expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="wms-sync webhooks"/);
          expect(await res.json()).toMatchObject({ success: false, error: 'unauthorized' });
          expect(await stored('acme')).toBe(before);
        });
      }
    }

    it('credentials are checked before the body: a malformed body with wrong credentials is 401 and not stored', async () => {
      const before = await stored('acme');
      const res = await postWebhook(svc.app, acme, 'reception-close', '{oops', { auth: basicAuth('x', 'y') });
      expect(res.status).toBe(401);
      expect(await stored('acme')).toBe(before);
    });

    it('rotation: both the current and the previous credentials are accepted', async () => {
      expect(
        (
          await postWebhook(svc.app, globex, 'reception-close', uniquePayload('reception-close'), {
            auth: authOf(globex, 0),
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await postWebhook(svc.app, globex, 'reception-close', uniquePayload('reception-close'), {
            auth: authOf(globex, 1),
          })
        ).status,
      ).toBe(200);
      expect(await stored('globex')).toBe(2);
    });

    it('rotation done: a service configured without the previous credentials refuses them', async () => {
      const rotated = { ...globex, webhookCredentials: [globex.webhookCredentials[0]!] };
      const after = await startTestService({ label: 'wh-rotated', dialect, connections: [rotated] });
      try {
        expect(
          (
            await postWebhook(after.app, rotated, 'reception-close', uniquePayload('reception-close'), {
              auth: authOf(globex, 1),
            })
          ).status,
        ).toBe(401);
        expect(
          (
            await postWebhook(after.app, rotated, 'reception-close', uniquePayload('reception-close'), {
              auth: authOf(globex, 0),
            })
          ).status,
        ).toBe(200);
      } finally {
        await after.close();
      }
    });

    it('the auth scheme is case-insensitive', async () => {
      const lower = authOf(acme).replace('Basic', 'basic');
      expect(
        (
          await postWebhook(svc.app, acme, 'stock-regularization', uniquePayload('stock-regularization'), {
            auth: lower,
          })
        ).status,
      ).toBe(200);
    });

    it('an unknown connection answers exactly like a wrong password (401, same body and headers), so names cannot be enumerated', async () => {
      const unknown = await postWebhook(svc.app, acme, 'reception-close', uniquePayload('reception-close'), {
        connection: 'initech',
      });
      const wrong = await postWebhook(svc.app, acme, 'reception-close', uniquePayload('reception-close'), {
        auth: basicAuth('wms-acme', 'not-the-password'),
      });
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
      expect(strip((await unknown.json()) as Record<string, unknown>)).toEqual(
        strip((await wrong.json()) as Record<string, unknown>),
      );
      const headers = (r: Response) => [...r.headers.entries()].filter(([k]) => k !== 'x-request-id');
      expect(headers(unknown)).toEqual(headers(wrong));
      expect(await stored('initech')).toBe(0);
    });

    it('never writes credentials to the log, even at debug level', async () => {
      await postWebhook(svc.app, acme, 'reception-close', uniquePayload('reception-close'));
      await postWebhook(svc.app, acme, 'reception-close', '{', { auth: basicAuth('wms-acme', 'a-guessed-password') });
      const log = logs.text();
      expect(log).toContain('/webhooks/acme/reception-close');
      for (const secret of [acme.webhookCredentials[0]!.password, authOf(acme).slice(6), 'a-guessed-password'])
        expect(log).not.toContain(secret);
    });
  });
}
