import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_USERNAME } from '../../src/demo/connection.js';
import { blockInternet, openBrowser, signIn, type TestBrowser } from '../support/browser.js';
import { basicAuth } from '../support/service.js';
import { until } from '../support/wait.js';
import { type ConsoleStack, startConsoleStack } from './browser-stack.js';

// Evaluated through the DevTools protocol, which the pages' CSP (no inline script) does not govern.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** axe-core's critical and serious violations on the page as it is now: rule, nodes, first target. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate<{
    violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
  }>("axe.run(document, { resultTypes: ['violations'] })");
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id} (${v.nodes.length}: ${JSON.stringify(v.nodes[0]?.target)})`);
}

/** How much wider than the viewport the page is (0 when nothing scrolls sideways), and what sticks out. */
function overflow(page: Page): Promise<{ px: number; widest: string }> {
  return page.evaluate<{ px: number; widest: string }>(`(() => {
    const px = document.documentElement.scrollWidth - window.innerWidth;
    let widest = '';
    let right = window.innerWidth;
    for (const el of document.body.querySelectorAll('*')) {
      if (el.parentElement.closest('.table-wrap, pre')) continue;
      const r = el.getBoundingClientRect().right;
      if (r > right) { right = r; widest = el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).replace(/ /g, '.') : ''); }
    }
    return { px, widest };
  })()`);
}

/** Resolves after the next htmx swap on the page (a refresh), however long the machine takes. */
function nextSwap(page: Page): Promise<void> {
  return page.evaluate<void>(
    "new Promise((resolve) => document.addEventListener('htmx:afterSettle', () => resolve(), { once: true }))",
  );
}

/**
 * Every console page, signed in and with something on it to show (a quarantined event, a failed
 * push, a document, a reconciliation run), in Chromium at 1440 and at 390 px: no critical or serious
 * axe-core violation, nothing wider than the screen; and the events list filtered by keyboard alone.
 */
export function browserA11ySuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`console accessibility and narrow screens in a browser (${dialect})`, () => {
    let s: ConsoleStack;
    let b: TestBrowser;
    const c = '/console/connections/demo';
    const pages: string[] = [];

    beforeAll(async () => {
      [s, b] = await Promise.all([
        startConsoleStack(`browser-a11y-${dialect}`, dialect),
        openBrowser({ viewport: WIDE, timezoneId: 'Europe/Madrid' }),
      ]);
      await blockInternet(b.context);
      // A regularization whose quantity is words: acknowledged, quarantined.
      const res = await fetch(`${s.url}/webhooks/demo/stock-regularization`, {
        method: 'POST',
        headers: {
          authorization: basicAuth(DEMO_WEBHOOK_USERNAME, s.stack.secrets.webhookPassword),
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          productExternalCode: 'OLV-OIL-1L',
          lotCode: 'L-A11Y',
          quantity: 'seven',
          movementTime: '2026-11-25T09:30:00+01:00',
        }),
      });
      expect(res.status).toBe(200);
      // A product the WMS refuses.
      await s.control('POST', '/faults', { method: 'POST', path: '/api/external/v1/product', status: 400, count: 1 });
      await s.erp('PUT', '/products/A11Y-REFUSED', { externalCode: 'A11Y-REFUSED', description: 'Refused' });
      const run = await s.admin('POST', '/connections/demo/reconciliations');
      expect(run.status).toBeLessThan(300);
      let quarantined = 0;
      await until(
        async () => {
          const q = (await s.admin('GET', '/events?connection=demo&status=quarantined&limit=1')).body;
          quarantined = q.events[0]?.id ?? 0;
          const failed = (await s.erp('GET', '/products/A11Y-REFUSED')).body.state === 'failed';
          const runs = (await s.admin('GET', '/connections/demo/reconciliations?limit=1')).body.runs;
          return quarantined > 0 && failed && ['completed', 'partial'].includes(runs[0]?.status);
        },
        { timeoutMs: 30_000, message: 'a quarantined event, a failed push and a finished run' },
      );
      const runId = (await s.admin('GET', '/connections/demo/reconciliations?limit=1')).body.runs[0].id as number;
      const document = (await s.admin('GET', '/connections/demo/pushes?entity=document&limit=1')).body;
      const documentCode = document.records[0].externalCode as string;
      pages.push(
        `${c}/overview`,
        `${c}/events`,
        `${c}/events?status=quarantined`,
        `${c}/events/${quarantined}`,
        `${c}/events/${quarantined}/edit`,
        `${c}/events/retry?status=quarantined`,
        `${c}/pushes?entity=product`,
        `${c}/pushes/product/A11Y-REFUSED`,
        `${c}/pushes/document/${documentCode}`,
        `${c}/pushes/document/${documentCode}/cancel`,
        `${c}/pushes/retry-failed?entity=product`,
        `${c}/reconciliations`,
        `${c}/reconciliations/${runId}`,
        `${c}/feed`,
        `${c}/feed?after=0`,
        `${c}/emulator`,
        `${c}/deliveries`,
        `${c}/deliveries/resend`,
      );
      const delivery = (await s.admin('GET', '/deliveries?connection=demo&limit=1')).body.deliveries[0];
      if (delivery) pages.push(`${c}/deliveries/${delivery.id}`);
    });
    afterAll(async () => {
      await b?.close();
      await s?.close();
    });

    for (const [name, viewport] of [
      ['1440', WIDE],
      ['390', PHONE],
    ] as const) {
      it(`every page at ${name} px: no critical or serious axe violation, no sideways scroll`, async () => {
        await b.page.setViewportSize(viewport);
        await b.context.clearCookies();
        await b.page.goto(`${s.url}/console/sign-in`);
        const problems: string[] = [];
        const check = async (path: string) => {
          await b.page.waitForLoadState('load');
          for (const v of await seriousViolations(b.page)) problems.push(`${path}: ${v}`);
          const wider = await overflow(b.page);
          if (wider.px > 0) problems.push(`${path}: ${wider.px} px wider than the screen (${wider.widest})`);
        };
        await check('/console/sign-in');
        await signIn(b.page, s.url, s.adminToken);
        for (const path of pages) {
          await b.page.goto(`${s.url}${path}`);
          await check(path);
        }
        expect(problems).toEqual([]);
      });
    }

    it('filters the events list by keyboard alone: arrows move in the select, Enter applies', async () => {
      await b.page.setViewportSize(PHONE);
      await b.page.goto(`${s.url}${c}/events`);
      // The skip link is the first stop and leads to the page.
      await b.page.keyboard.press('Tab');
      expect(await b.page.evaluate<string>('document.activeElement?.textContent?.trim()')).toBe('Skip to the page');
      const ring = await b.page.evaluate<string>('getComputedStyle(document.activeElement).outlineWidth');
      expect(Number.parseFloat(ring)).toBeGreaterThanOrEqual(2);
      await b.page.keyboard.press('Enter');
      expect(await b.page.evaluate<string>('document.activeElement?.id')).toBe('main');
      for (let i = 0; i < 40; i++) {
        await b.page.keyboard.press('Tab');
        if (await b.page.evaluate<boolean>("document.activeElement?.getAttribute('name') === 'status'")) break;
      }
      expect(await b.page.evaluate<string>("document.activeElement?.getAttribute('name')")).toBe('status');
      const before = b.page.url();
      for (let i = 0; i < 10; i++) {
        if ((await b.page.locator('select[name=status]').inputValue()) === 'quarantined') break;
        await b.page.keyboard.press('ArrowDown');
      }
      expect(await b.page.locator('select[name=status]').inputValue()).toBe('quarantined');
      // Moving through the options left the page where it was.
      expect(b.page.url()).toBe(before);
      await Promise.all([b.page.waitForURL(/status=quarantined/), b.page.keyboard.press('Enter')]);
      await b.page
        .locator('tr', { hasText: 'L-A11Y' })
        .or(b.page.locator('tr', { hasText: '"seven"' }))
        .first()
        .waitFor();
      // A typed filter applies with Enter as well.
      await b.page.locator('input[name=code]').focus();
      await b.page.keyboard.type('OLV-OIL-1L');
      await Promise.all([b.page.waitForURL(/code=OLV-OIL-1L/), b.page.keyboard.press('Enter')]);
      expect(new URL(b.page.url()).searchParams.get('status')).toBe('quarantined');
    });

    it('the overview’s refresh keeps the focused link focused and the page where it was', async () => {
      await b.page.setViewportSize(PHONE);
      await b.page.goto(`${s.url}${c}/overview`);
      const link = b.page.locator('#overview-live a').last();
      await link.focus();
      const href = await link.getAttribute('href');
      await b.page.evaluate('window.scrollTo(0, 300)');
      const y = await b.page.evaluate<number>('window.scrollY');
      await nextSwap(b.page);
      expect(await b.page.evaluate<string>("document.activeElement?.getAttribute('href')")).toBe(href);
      expect(await b.page.evaluate<boolean>('document.activeElement?.isConnected')).toBe(true);
      expect(await b.page.evaluate<number>('window.scrollY')).toBe(y);
    });

    it('writes the local time beside UTC, and labels statuses in words', async () => {
      await b.page.goto(`${s.url}${c}/events?status=quarantined`);
      const first = b.page.locator('td time[datetime]').first();
      const iso = (await first.getAttribute('datetime'))!;
      const madrid = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Madrid',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(iso));
      expect(await first.locator('xpath=following-sibling::span[1]').textContent()).toContain(`${madrid} local`);
      await b.page.locator('.badge', { hasText: 'Quarantined: needs a fix' }).first().waitFor();
    });
  });
}
