import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockInternet, openBrowser, type TestBrowser } from '../support/browser.js';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { type ConsoleStack, startConsoleStack } from './browser-stack.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate<{ violations: { id: string; impact: string | null }[] }>(
    "axe.run(document, { resultTypes: ['violations'] })",
  );
  return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => v.id);
}

/**
 * In Chromium, OpenID Connect sign-in through a real provider's own login and consent pages. The
 * provider listens on 127.0.0.2, another site than the console's 127.0.0.1, so the browser treats
 * its redirect back as a real provider's (SameSite): the session must still hold on the next page.
 * It starts after the service, as a provider that is down at the service's start.
 */
export function browserOidcSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`console in a browser: sign-in with OpenID Connect (${dialect})`, () => {
    let provider: TestProvider;
    let s: ConsoleStack;
    let b: TestBrowser;
    const overview = '/console/connections/demo/overview';

    beforeAll(async () => {
      provider = await startTestProvider(
        { alice: { email: 'alice@example.com', email_verified: true, groups: ['ops'] } },
        { host: '127.0.0.2' },
      );
      [s, b] = await Promise.all([
        startConsoleStack(`browser-oidc-${dialect}`, dialect, {
          waitForSample: false,
          env: {
            OIDC_ISSUER: provider.issuer,
            OIDC_CLIENT_ID: provider.clientId,
            OIDC_CLIENT_SECRET: provider.clientSecret,
            OIDC_ALLOWED_DOMAINS: 'example.com',
            OIDC_ALLOWED_GROUPS: 'ops',
            OIDC_NAME: 'Test SSO',
            OIDC_SCOPES: 'openid email profile groups',
          },
        }),
        openBrowser(),
      ]);
      await provider.register(`${s.url}/console/sign-in/oidc/callback`);
      await blockInternet(b.context);
    });
    afterAll(async () => {
      await b?.close();
      await s?.close();
      await provider?.close();
    });

    it('the sign-in page offers "Sign in with Test SSO" beside the token form, with no critical or serious axe violation', async () => {
      await b.page.goto(`${s.url}${overview}`);
      expect(new URL(b.page.url()).pathname).toBe('/console/sign-in');
      await b.page.getByRole('link', { name: 'Sign in with Test SSO' }).waitFor();
      await b.page.locator('input[name=token]').waitFor();
      expect(await seriousViolations(b.page)).toEqual([]);
    });

    it("signs in at the provider's login and consent pages and lands where the operator was going, signed in by name", async () => {
      await b.page.getByRole('link', { name: 'Sign in with Test SSO' }).click();
      await b.page.waitForURL((u) => u.origin === provider.issuer);
      await b.page.fill('input[name=login]', 'alice');
      await b.page.fill('input[name=password]', 'any password');
      await b.page.getByRole('button', { name: 'Sign-in' }).click();
      await b.page.getByRole('button', { name: 'Continue' }).click();
      await b.page.waitForURL((u) => u.pathname === overview);
      await b.page.getByRole('heading', { name: 'Overview' }).waitFor();
      expect(await b.page.locator('.topbar .who').textContent()).toBe('Signed in as alice@example.com');
      const cookie = (await b.context.cookies(`${s.url}/console/`)).find((c) => c.name === 'wms_console_session')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    });

    it('signs out from the top bar: back to the sign-in form, and the pages ask for it again', async () => {
      await b.page.getByRole('button', { name: 'Sign out' }).click();
      await b.page.waitForURL((u) => u.pathname === '/console/sign-in');
      await b.page.goto(`${s.url}${overview}`);
      expect(new URL(b.page.url()).pathname).toBe('/console/sign-in');
    });
  });
}
