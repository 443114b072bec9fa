import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it with apt when missing): never a browser download. */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** One headless Chromium for a test file, with a fresh profile, reused by its tests. */
export async function openBrowser(
  options: { viewport?: { width: number; height: number }; timezoneId?: string } = {},
): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'wms-sync-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: options.viewport ?? { width: 1360, height: 900 },
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Refuses every request that does not go to this machine (the loopback range): the pages must work offline. */
export async function blockInternet(context: BrowserContext): Promise<string[]> {
  const blocked: string[] = [];
  await context.route(
    (url) => !(/^127\.\d+\.\d+\.\d+$/.test(url.hostname) || ['localhost', '[::1]'].includes(url.hostname)),
    (route) => {
      blocked.push(route.request().url());
      return route.abort('internetdisconnected');
    },
  );
  return blocked;
}

/** Signs in to the console at `url` with the admin token; resolves on the page it lands on. */
export async function signIn(page: Page, url: string, token: string, next = '/console'): Promise<void> {
  await page.goto(`${url}/console/sign-in?next=${encodeURIComponent(next)}`);
  await page.fill('input[name=token]', token);
  await Promise.all([page.waitForURL((u) => !u.pathname.endsWith('/sign-in')), page.click('button[type=submit]')]);
}
