import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockInternet, openBrowser, signIn, type TestBrowser } from '../support/browser.js';
import { type ConsoleStack, startConsoleStack } from './browser-stack.js';

/** In Chromium: sign-in and sign-out, refusal without a session, a cross-site POST refused. */
export function browserAuthSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`console in a browser: sessions and cross-site requests (${dialect})`, () => {
    let s: ConsoleStack;
    let b: TestBrowser;
    let attacker: Server;
    let attackerUrl: string;
    const overview = '/console/connections/demo/overview';

    beforeAll(async () => {
      [s, b] = await Promise.all([
        startConsoleStack(`browser-auth-${dialect}`, dialect, { waitForSample: false }),
        openBrowser(),
      ]);
      await blockInternet(b.context);
      // Another site (another origin on this machine) whose page posts a form to the console.
      attacker = createServer((_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.end(
          `<form id="f" method="post" action="${s.url}/console/connections/demo/reconciliations"><input name="_csrf" value="guess"></form><script>document.getElementById('f').submit()</script>`,
        );
      });
      await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
      attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
    });
    afterAll(async () => {
      await b?.close();
      attacker?.close();
      await s?.close();
    });

    it('without a session, a page leads to the sign-in form', async () => {
      await b.page.goto(`${s.url}${overview}`);
      expect(new URL(b.page.url()).pathname).toBe('/console/sign-in');
      await expectVisible(b, 'input[name=token]');
    });

    it('a wrong token is refused on the form; the admin token signs in and lands where the operator was going', async () => {
      await b.page.fill('input[name=token]', 'not-the-admin-token-xyz');
      await b.page.click('button[type=submit]');
      await b.page.getByText('That is not the admin token of this service.').waitFor();
      await signIn(b.page, s.url, s.adminToken, overview);
      expect(new URL(b.page.url()).pathname).toBe(overview);
      await b.page.getByRole('heading', { name: 'Overview' }).waitFor();
      const cookie = (await b.context.cookies(`${s.url}/console/`)).find((c) => c.name === 'wms_console_session')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
      expect(cookie.expires).toBeGreaterThan(Date.now() / 1000);
    });

    it('a form posted from another site is refused (403) and changes nothing, though the browser sent the cookie', async () => {
      const page = await b.context.newPage();
      const answer = page.waitForResponse(
        (r) => r.url().endsWith('/console/connections/demo/reconciliations') && r.request().method() === 'POST',
      );
      await page.goto(attackerUrl);
      const response = await answer;
      expect(response.status()).toBe(403);
      // Same site (another port of this host), so SameSite=Strict let the cookie through: the
      // origin check is what refused it.
      expect(await response.request().headerValue('cookie')).toContain('wms_console_session=');
      await page.close();
      expect((await s.admin('GET', '/connections/demo/reconciliations')).body.runs).toEqual([]);
    });

    it('signs out: back to the sign-in form, and the pages ask for it again', async () => {
      await b.page.goto(`${s.url}${overview}`);
      await b.page.getByRole('button', { name: 'Sign out' }).click();
      await b.page.waitForURL((u) => u.pathname === '/console/sign-in');
      await b.page.goto(`${s.url}${overview}`);
      expect(new URL(b.page.url()).pathname).toBe('/console/sign-in');
    });
  });
}

async function expectVisible(b: TestBrowser, selector: string): Promise<void> {
  await b.page.locator(selector).waitFor({ state: 'visible' });
}
