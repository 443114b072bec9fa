import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockInternet, openBrowser, type TestBrowser } from '../support/browser.js';
import { type ConsoleStack, startConsoleStack } from './browser-stack.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's critical and serious violations on the page as it is now: rule ids and how many nodes. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: the page's own CSP forbids inline scripts, rightly.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const result = await page.evaluate<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }>(
    "axe.run(document, { resultTypes: ['violations'] })",
  );
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id} (${v.nodes.length})`);
}

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
      await b.page.getByRole('heading', { name: 'Create or update a product in the WMS' }).first().waitFor();
      expect(blocked).toEqual([]);
      // The page does not depend on the database: checked once (axe takes seconds on a reference page).
      if (dialect === 'sqlite') expect(await seriousViolations(b.page)).toEqual([]);
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
