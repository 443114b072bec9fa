import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_USERNAME } from '../../src/demo/connection.js';
import { blockInternet, openBrowser, signIn, type TestBrowser } from '../support/browser.js';
import { basicAuth } from '../support/service.js';
import { until } from '../support/wait.js';
import { type ConsoleStack, startConsoleStack } from './browser-stack.js';

/** The value at a dotted path of the admin API's overview (`pushes.product.failed` reads the product row). */
function atPath(overview: any, path: string): number {
  const [head, ...rest] = path.split('.');
  if (head === 'pushes' && rest.length === 2 && rest[0] !== 'totals')
    return overview.pushes.entities.find((e: any) => e.entity === rest[0])[rest[1]!];
  return path.split('.').reduce((v, k) => v?.[k], overview) as number;
}

/**
 * In Chromium, against what `wms-sync start` runs: the overview shows the admin API's numbers; a
 * failed push retried from the console once the WMS's fault is cleared; a reconciliation started
 * from the console finds the movement whose webhook was lost; a reception triggered from the
 * emulator panel comes back as a feed entry; a quarantined event found, corrected (after the
 * editor's feedback on bad JSON), retried and processed into the feed; a bulk retry's count.
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
          const shown = await b.page
            .locator('[data-metric]')
            .evaluateAll((els) => els.map((e) => [e.getAttribute('data-metric')!, e.textContent!.trim()] as const));
          const api = (await s.admin('GET', '/connections/demo/overview')).body;
          const mismatches = shown.filter(([path, text]) => Number(text.replace(/,/g, '')) !== atPath(api, path));
          last = JSON.stringify({ shown, mismatches });
          return shown.length >= 20 && mismatches.length === 0;
        },
        { timeoutMs: 15_000, message: 'the overview and the admin API agree' },
      ).catch((err: Error) => {
        throw new Error(`${err.message}: ${last}`);
      });
      expect(await b.page.locator('[data-metric="pushes.product.synced"]').textContent()).toBe('20');
    });

    it('a push the WMS refused is retried from the console once the emulator’s fault is cleared', async () => {
      expect(
        (await s.control('POST', '/faults', { method: 'POST', path: '/api/external/v1/product', status: 400 })).status,
      ).toBe(201);
      await s.erp('PUT', '/products/CONSOLE-RETRY-1', {
        externalCode: 'CONSOLE-RETRY-1',
        description: 'Retried from the console',
      });
      await until(async () => (await s.erp('GET', '/products/CONSOLE-RETRY-1')).body.state === 'failed', {
        message: 'the push failed',
      });
      await b.page.goto(`${s.url}${c}/pushes?entity=product&state=failed`);
      const row = b.page.locator('tr', { hasText: 'CONSOLE-RETRY-1' });
      await row.getByText('HTTP 400: Injected fault: HTTP 400').waitFor();
      await row.getByRole('link', { name: 'CONSOLE-RETRY-1' }).click();
      await b.page.getByText('Failed', { exact: true }).first().waitFor();

      expect((await s.control('DELETE', '/faults')).status).toBe(204);
      await b.page.getByRole('button', { name: 'Retry now' }).click();
      await b.page.getByText('CONSOLE-RETRY-1: queued for another push now.').waitFor();
      await until(async () => (await s.erp('GET', '/products/CONSOLE-RETRY-1')).body.state === 'synced', {
        message: 'pushed again',
      });
      await b.page.reload();
      await b.page.locator('.page-head .badge', { hasText: 'synced' }).waitFor();
      expect(await b.page.getByRole('button', { name: 'Retry now' }).count()).toBe(0);
    });

    it('a reconciliation started from the console finds the movement whose webhook was lost, and shows its drift', async () => {
      // A count finds 3 more of a lot; its webhook is dropped on the way (a lost stock regularization is never re-sent).
      expect((await s.control('POST', '/faults', { scope: 'webhook', path: '**', drop: true, count: 1 })).status).toBe(
        201,
      );
      const done = await s.control('POST', '/tenants/demo/stock/regularizations', {
        productExternalCode: 'OLV-OIL-1L',
        lotCode: 'L-CONSOLE',
        quantity: 3,
        expirationDate: '2027-06-30',
      });
      expect(done.status).toBe(200);
      await b.page.goto(`${s.url}${c}/reconciliations`);
      await b.page.getByRole('button', { name: 'Start a reconciliation' }).click();
      await b.page.waitForURL(/\/reconciliations\/\d+$/);
      // The run page follows the run (htmx) until it ends.
      const row = b.page.locator('tr', { hasText: 'L-CONSOLE' });
      await row.waitFor({ timeout: 20_000 });
      expect(await row.textContent()).toMatch(/OLV-OIL-1L.*L-CONSOLE.*Drift.*\+3/);
      await b.page.locator('.badge', { hasText: 'completed' }).first().waitFor({ timeout: 20_000 });
      expect(await b.page.locator('[data-metric="driftCount"]').textContent()).toBe('1');
    });

    it('a reception triggered from the emulator panel arrives as a webhook and comes back as a feed entry', async () => {
      await b.page.goto(`${s.url}${c}/emulator`);
      await b.page.fill('#reception-document', 'PO-2026-0001');
      await b.page.getByRole('button', { name: 'Fill lines from the document' }).click();
      await expect.poll(() => b.page.locator('input[name=line_product]').first().inputValue()).toBe('OLV-OIL-1L');
      expect(await b.page.locator('input[name=line_quantity]').first().inputValue()).toBe('240');
      await b.page.getByRole('button', { name: 'Receive and close' }).click();
      await b.page.waitForURL(/\/emulator\?watch=\d/);
      await b.page.getByText('of PO-2026-0001 closed with 2 line(s)', { exact: false }).waitFor();
      // Polled every 2 s: the delivery answered by the service, then the feed entry in the feed.
      await b.page
        .locator('#emulator-watch tr', { hasText: 'reception-close' })
        .getByText('delivered')
        .waitFor({ timeout: 15_000 });
      await b.page
        .locator('#emulator-watch tr', { hasText: 'reception.closed' })
        .filter({ hasText: 'PO-2026-0001' })
        .waitFor({ timeout: 15_000 });
      const feed = (await s.erp('GET', '/feed?after=0&limit=1000')).body.entries as {
        type: string;
        data: { documentExternalCode?: string };
      }[];
      expect(feed.some((e) => e.type === 'reception.closed' && e.data.documentExternalCode === 'PO-2026-0001')).toBe(
        true,
      );
    });

    it('a quarantined event is found, corrected in the editor (feedback on bad JSON first), retried, processed and in the feed', async () => {
      const cspErrors: string[] = [];
      b.page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
      });
      // What a WMS might send: a regularization whose quantity is words. Acknowledged, quarantined.
      const deliver = (body: unknown) =>
        fetch(`${s.url}/webhooks/demo/stock-regularization`, {
          method: 'POST',
          headers: {
            authorization: basicAuth(DEMO_WEBHOOK_USERNAME, s.stack.secrets.webhookPassword),
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
        });
      const bad = {
        productExternalCode: 'OLV-OIL-1L',
        lotCode: 'L-QUARANTINE',
        quantity: 'five',
        movementTime: '2026-11-25T09:30:00+01:00',
      };
      expect((await deliver(bad)).status).toBe(200);
      expect((await deliver({ ...bad, lotCode: 'L-BULK', quantity: 'six' })).status).toBe(200);

      // Found from the list's status filter (applied with its button).
      await b.page.goto(`${s.url}${c}/events`);
      await b.page.selectOption('select[name=status]', 'quarantined');
      await b.page.getByRole('button', { name: 'Apply' }).click();
      await b.page.waitForURL(/status=quarantined/);
      const row = b.page
        .locator('tr', { hasText: 'L-QUARANTINE' })
        .or(b.page.locator('tr', { hasText: 'expected a number, got "five"' }));
      await row.first().waitFor();
      await row.first().locator('td.num a').click();
      await b.page.getByText('quantity: expected a number, got "five"').first().waitFor();
      const id = Number(/\/events\/(\d+)$/.exec(b.page.url())![1]);
      expect((await s.admin('GET', `/events/${id}`)).body.event.status).toBe('quarantined');

      await b.page.getByRole('link', { name: 'Edit payload' }).click();
      await b.page.waitForURL(/\/edit$/);
      const editor = b.page.locator('#payload-editor');
      await editor.fill('{"productExternalCode": "OLV-OIL-1L", "quantity": ');
      // console.js says at once that it does not parse; the server's check (htmx, debounced) too.
      await b.page.locator('#payload-editor-validation.bad').getByText('Not valid JSON').waitFor();
      await b.page.locator('[data-check="not-json"]').waitFor();
      // A save is not even sent while the text does not parse (console.js stops the submit).
      const saves: string[] = [];
      b.page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith(`/events/${id}/edit`)) saves.push(r.url());
      });
      await b.page.getByRole('button', { name: 'Save and process' }).click();
      // Parses, but still no number: the schema's problem by path (by then a sent save would have shown).
      await editor.fill(JSON.stringify({ ...bad, quantity: 'five!' }, null, 2));
      await b.page.locator('[data-check="problems"]').getByText('expected a number, got "five!"').waitFor();
      expect(saves).toEqual([]);
      expect(await s.admin('GET', `/events/${id}`).then((r) => r.body.edits)).toEqual([]);
      await editor.fill(JSON.stringify({ ...bad, quantity: 5 }, null, 2));
      await b.page.locator('[data-check="ok"]').getByText('"five" → 5').waitFor();
      await b.page.getByRole('button', { name: 'Save and process' }).click();
      await b.page.waitForURL(new RegExp(`/events/${id}$`));
      await b.page.getByRole('status').getByText('Correction saved (1 change)').waitFor();

      // Retried from its page (its processing queued again; processing is idempotent), then processed.
      await b.page.getByRole('button', { name: /^(Retry now|Process again)$/ }).click();
      await b.page.getByRole('status').getByText(`Event ${id} is queued for processing again.`).waitFor();
      await until(async () => (await s.admin('GET', `/events/${id}`)).body.event.status === 'processed', {
        message: 'the corrected event processed',
      });
      await b.page.reload();
      await b.page.locator('.page-head .badge', { hasText: 'processed' }).waitFor();
      const feedEntry = b.page.locator('#feed-entries tr', { hasText: 'stock.adjusted' });
      await feedEntry.getByText('OLV-OIL-1L').first().waitFor();
      // The correction is recorded under the signed-in operator's name (ADMIN_TOKEN is operator "admin").
      expect(
        await b.page.locator('.card', { hasText: 'Corrections' }).getByText('admin', { exact: true }).count(),
      ).toBe(1);
      // Its cursor opens the feed exactly as the ERP reads it after the entry before.
      await feedEntry.locator('td.num a').click();
      await b.page.waitForURL(/\/feed\?after=\d+$/);
      await b.page.locator('tr', { hasText: 'stock.adjusted' }).filter({ hasText: 'L-QUARANTINE' }).first().waitFor();
      const feed = (await s.erp('GET', '/feed?after=0&limit=1000')).body.entries as {
        type: string;
        data: { lotCode?: string; quantity?: number };
      }[];
      expect(
        feed
          .filter((e) => e.type === 'stock.adjusted' && e.data.lotCode === 'L-QUARANTINE')
          .map((e) => e.data.quantity),
      ).toEqual([5]);
      expect(cspErrors).toEqual([]);
    });

    it('a bulk retry of a filter confirms how many events it will touch, as the admin API counts them', async () => {
      const total = (await s.admin('GET', '/events?connection=demo&status=quarantined')).body.total as number;
      expect(total).toBeGreaterThanOrEqual(1);
      await b.page.goto(`${s.url}${c}/events?status=quarantined`);
      await b.page.getByRole('link', { name: /Retry quarantined events of this filter/ }).click();
      await b.page.waitForURL(/\/events\/retry\?status=quarantined$/);
      expect(await b.page.locator('.card p strong').first().textContent()).toBe(String(total));
      await b.page.getByRole('button', { name: `Retry ${total} now` }).click();
      await b.page.waitForURL(/\/events\?status=quarantined$/);
      await b.page.getByText(`${total} event(s) queued for processing again`).waitFor();
    });
  });
}
