import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockInternet, openBrowser, type TestBrowser } from '../support/browser.js';
import { type ConsoleStack, startConsoleStack } from './browser-stack.js';

/**
 * In Chromium with every request off this machine refused, as on a warehouse or ERP host without
 * internet: the service's and the emulator's API references render from their own routes.
 */
export function browserDocsSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`API references offline in a browser (${dialect})`, () => {
    let s: ConsoleStack;
    let b: TestBrowser;
    let blocked: string[];

    beforeAll(async () => {
      [s, b] = await Promise.all([
        startConsoleStack(`browser-docs-${dialect}`, dialect, { waitForSample: false }),
        openBrowser(),
      ]);
      blocked = await blockInternet(b.context);
    });
    afterAll(async () => {
      await b?.close();
      await s?.close();
    });

    it('/docs renders the service’s reference', async () => {
      await b.page.goto(`${s.url}/docs`);
      await b.page.getByText('Webhook receiver for the WMS and the ERP API of wms-sync.').waitFor({ timeout: 25_000 });
      await b.page.getByText('Create or update a product in the WMS').first().waitFor();
      expect(blocked).toEqual([]);
    });

    it('/_emulator/docs renders the emulator’s reference', async () => {
      await b.page.goto(`${s.emulatorUrl}/_emulator/docs`);
      await b.page
        .getByText('A stateful emulator of the warehouse management service external API', { exact: false })
        .first()
        .waitFor({ timeout: 25_000 });
      // Nothing either page needed came from the internet (the route would have refused it).
      expect(blocked).toEqual([]);
    });
  });
}
