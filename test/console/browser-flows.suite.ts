import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockInternet, openBrowser, signIn, type TestBrowser } from '../support/browser.js';
import { until } from '../support/wait.js';
import { startConsoleStack, type ConsoleStack } from './browser-stack.js';

/** The value at a dotted path of the admin API's overview (`outbound.product.failed` reads the product row). */
function atPath(overview: any, path: string): number {
  const [head, ...rest] = path.split('.');
  if (head === 'outbound' && rest.length === 2 && rest[0] !== 'totals') return overview.outbound.entities.find((e: any) => e.entity === rest[0])[rest[1]!];
  return path.split('.').reduce((v, k) => v?.[k], overview) as number;
}

/**
 * In Chromium, against what `wms-sync start` runs: the overview shows the admin API's numbers; a
 * failed push retried from the console once the WMS's fault is cleared; a reconciliation started
 * from the console finds the movement whose webhook was lost; a reception triggered from the
 * emulator panel comes back as a confirmation.
 */
export function browserFlowsSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`console in a browser: overview, retry, reconciliation, emulator panel (${dialect})`, () => {
    let s: ConsoleStack;
    let b: TestBrowser;
    const c = '/console/connections/demo';

    beforeAll(async () => {
      [s, b] = await Promise.all([startConsoleStack(`browser-flows-${dialect}`, dialect), openBrowser()]);
      await blockInternet(b.context);
      await signIn(b.page, s.url, s.adminToken);
    });
    afterAll(async () => {
      await b?.close();
      await s?.close();
    });

    it('the overview shows the numbers of the admin API’s overview', async () => {
      // Both are read again until they agree on one moment (the worker's timers move the queue).
      let last = '';
      await until(
        async () => {
          await b.page.goto(`${s.url}${c}/overview`);
          const shown = await b.page.locator('[data-metric]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-metric')!, e.textContent!.trim()] as const));
          const api = (await s.admin('GET', '/connections/demo/overview')).body;
          const mismatches = shown.filter(([path, text]) => Number(text.replace(/,/g, '')) !== atPath(api, path));
          last = JSON.stringify({ shown, mismatches });
          return shown.length >= 20 && mismatches.length === 0;
        },
        { timeoutMs: 15_000, message: 'the overview and the admin API agree' },
      ).catch((err: Error) => {
        throw new Error(`${err.message}: ${last}`);
      });
      expect(await b.page.locator('[data-metric="outbound.product.synced"]').textContent()).toBe('20');
    });

    it('a push the WMS refused is retried from the console once the emulator’s fault is cleared', async () => {
      expect((await s.control('POST', '/faults', { method: 'POST', path: '/api/external/v1/product', status: 400 })).status).toBe(201);
      await s.erp('PUT', '/products/CONSOLE-RETRY-1', { externalCode: 'CONSOLE-RETRY-1', description: 'Retried from the console' });
      await until(async () => (await s.erp('GET', '/products/CONSOLE-RETRY-1')).body.state === 'failed', { message: 'the push failed' });
      await b.page.goto(`${s.url}${c}/outbound?entity=product&state=failed`);
      const row = b.page.locator('tr', { hasText: 'CONSOLE-RETRY-1' });
      await row.getByText('HTTP 400: Injected fault: HTTP 400').waitFor();
      await row.getByRole('link', { name: 'CONSOLE-RETRY-1' }).click();
      await b.page.getByText('failed', { exact: true }).first().waitFor();

      expect((await s.control('DELETE', '/faults')).status).toBe(204);
      await b.page.getByRole('button', { name: 'Retry now' }).click();
      await b.page.getByText('CONSOLE-RETRY-1: queued for another push now.').waitFor();
      await until(async () => (await s.erp('GET', '/products/CONSOLE-RETRY-1')).body.state === 'synced', { message: 'pushed again' });
      await b.page.reload();
      await b.page.locator('.page-head .badge', { hasText: 'synced' }).waitFor();
      expect(await b.page.getByRole('button', { name: 'Retry now' }).count()).toBe(0);
    });

    it('a reconciliation started from the console finds the movement whose webhook was lost, and shows its drift', async () => {
      // A count finds 3 more of a lot; its webhook is dropped on the way (a lost stock regularization is never re-sent).
      expect((await s.control('POST', '/faults', { scope: 'webhook', path: '**', drop: true, count: 1 })).status).toBe(201);
      const done = await s.control('POST', '/tenants/demo/stock/regularizations', { productExternalCode: 'OLV-OIL-1L', lotCode: 'L-CONSOLE', quantity: 3, expirationDate: '2027-06-30' });
      expect(done.status).toBe(200);
      await b.page.goto(`${s.url}${c}/reconciliations`);
      await b.page.getByRole('button', { name: 'Start a reconciliation' }).click();
      await b.page.waitForURL(/\/reconciliations\/\d+$/);
      // The run page follows the run (htmx) until it ends.
      const row = b.page.locator('tr', { hasText: 'L-CONSOLE' });
      await row.waitFor({ timeout: 20_000 });
      expect(await row.textContent()).toMatch(/OLV-OIL-1L.*L-CONSOLE.*drift.*\+3/);
      await b.page.locator('.badge', { hasText: 'completed' }).first().waitFor({ timeout: 20_000 });
      expect(await b.page.locator('[data-metric="driftCount"]').textContent()).toBe('1');
    });

    it('a reception triggered from the emulator panel arrives as a webhook and comes back as a confirmation', async () => {
      await b.page.goto(`${s.url}${c}/emulator`);
      await b.page.fill('#reception-document', 'PO-2026-0001');
      await b.page.getByRole('button', { name: 'Fill lines from the document' }).click();
      await expect.poll(() => b.page.locator('input[name=line_product]').first().inputValue()).toBe('OLV-OIL-1L');
      expect(await b.page.locator('input[name=line_quantity]').first().inputValue()).toBe('240');
      await b.page.getByRole('button', { name: 'Receive and close' }).click();
      await b.page.waitForURL(/\/emulator\?watch=\d/);
      await b.page.getByText('of PO-2026-0001 closed with 2 line(s)', { exact: false }).waitFor();
      // Polled every 2 s: the delivery answered by the service, then the confirmation in the feed.
      await b.page.locator('#emulator-watch tr', { hasText: 'reception-close' }).getByText('delivered').waitFor({ timeout: 15_000 });
      await b.page.locator('#emulator-watch tr', { hasText: 'reception.closed' }).filter({ hasText: 'PO-2026-0001' }).waitFor({ timeout: 15_000 });
      const feed = (await s.erp('GET', '/events?after=0&limit=1000')).body.events as { type: string; data: { documentExternalCode?: string } }[];
      expect(feed.some((e) => e.type === 'reception.closed' && e.data.documentExternalCode === 'PO-2026-0001')).toBe(true);
    });
  });
}
