/**
 * Screenshots of every console page for docs/console/ (README and docs/console.md show them):
 *   npm run console:screenshots
 * Starts the demo composition (emulator + service, temporary data), plays the demo scenario so
 * the pages have something to show, makes one push fail in the WMS, sends two deliveries processing
 * cannot apply (quarantined), and photographs each page in Debian's Chromium (no browser download,
 * no internet).
 */
import { fileURLToPath } from 'node:url';
import { DEMO_WEBHOOK_USERNAME } from '../src/demo/connection.js';
import { runScenario } from '../src/demo/scenario.js';
import { startDemoStack } from '../src/demo/stack.js';
import { DEMO_TENANT } from '../src/emulator/index.js';
import { loadConfig } from '../src/lib/config.js';
import { silentLogger } from '../src/lib/logger.js';
import { blockInternet, openBrowser, signIn } from '../test/support/browser.js';
import { tempDir } from '../test/support/tmp.js';

const out = fileURLToPath(new URL('../docs/console/', import.meta.url));
const tmp = tempDir('screenshots');
const config = loadConfig({
  DATA_DIR: tmp.dir,
  PORT: '0',
  EMULATOR_PORT: '0',
  LOG_LEVEL: 'silent',
  QUEUE_POLL_INTERVAL_MS: '200',
  RECONCILE_SETTLE_SECONDS: '1',
});
const stack = await startDemoStack(config, { logger: silentLogger(), emulatorInMemory: true });
const url = stack.serviceUrl;
const control = (method: string, path: string, body?: unknown) =>
  fetch(`${stack.emulator.url}/_emulator${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
const erp = (method: string, path: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.secrets.erpApiToken}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

try {
  const result = await runScenario(
    { serviceUrl: url, emulatorUrl: stack.emulator.url, tenant: DEMO_TENANT, erpToken: stack.secrets.erpApiToken },
    () => undefined,
    { timeoutMs: 30_000 },
  );
  if (!result.ok) throw new Error(`demo scenario failed: ${result.failures.join('; ')}`);
  // One product the WMS refuses (400), so the pushes page has a failure to show.
  await control('POST', '/faults', { method: 'POST', path: '/api/external/v1/product', status: 400, count: 1 });
  await erp('PUT', '/erp/v1/products/GIFT-BOX-2026', {
    externalCode: 'GIFT-BOX-2026',
    description: 'Gift box 2026 (seasonal)',
  });
  for (let i = 0; i < 100; i++) {
    const record = (await (await erp('GET', '/erp/v1/products/GIFT-BOX-2026')).json()) as { state: string };
    if (record.state === 'failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // Two deliveries a real WMS might send: a reception line without its product, a count in words.
  const deliver = (kind: string, body: unknown) =>
    fetch(`${url}/webhooks/demo/${kind}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${DEMO_WEBHOOK_USERNAME}:${stack.secrets.webhookPassword}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  await deliver('reception-close', {
    closingDocumentCode: 'REC-2026-000917',
    documentNumber: ['PO-2026-0002'],
    documentExternalCode: 'PO-2026-0002',
    documentType: 'PURCHASE_ORDER',
    receptionDate: '2026-11-25',
    lines: [
      { externalCode: 'OLV-OIL-1L', quantity: 120, lotCode: 'L-2611', expirationDate: '2027-09-30' },
      { quantity: 24, lotCode: 'L-2612', expirationDate: '2027-09-30' },
    ],
  });
  await deliver('stock-regularization', {
    productExternalCode: 'OLV-OIL-1L',
    lotCode: 'L-2611',
    quantity: 'twelve',
    movementTime: '2026-11-25T17:05:00+01:00',
    warehouse: 'WH-DEMO',
  });

  const browser = await openBrowser({ viewport: { width: 1360, height: 860 } });
  await blockInternet(browser.context);
  const page = browser.page;
  const shot = async (name: string, path: string, full = false) => {
    await page.goto(`${url}${path}`);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${out}${name}.png`, fullPage: full });
    console.log(`docs/console/${name}.png  ${path}`);
  };
  await page.goto(`${url}/console/sign-in`);
  await page.screenshot({ path: `${out}sign-in.png` });
  console.log('docs/console/sign-in.png  /console/sign-in');
  await signIn(page, url, stack.adminToken);
  const c = '/console/connections/demo';
  await shot('overview', `${c}/overview`, true);
  await shot('events', `${c}/events`);
  const quarantined = (await (
    await fetch(`${url}/admin/v1/events?connection=demo&kind=reception-close&status=quarantined&limit=1`, {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    })
  ).json()) as { events: { id: number }[] };
  const id = quarantined.events[0]!.id;
  await shot('event-quarantined', `${c}/events/${id}`, true);
  // The editor after a fix was typed: the server's check (htmx) says what the correction changes.
  await page.goto(`${url}${c}/events/${id}/edit`);
  const fixed = JSON.parse(await page.locator('#payload-editor').inputValue()) as { lines: Record<string, unknown>[] };
  fixed.lines[1] = { externalCode: 'OLV-OIL-1L', ...fixed.lines[1] };
  await page.locator('#payload-editor').fill(JSON.stringify(fixed, null, 2));
  await page.locator('[data-check="ok"]').waitFor();
  await page.screenshot({ path: `${out}event-edit.png`, fullPage: true });
  console.log(`docs/console/event-edit.png  ${c}/events/${id}/edit`);
  await shot('pushes', `${c}/pushes?entity=product`);
  await shot('push-failed', `${c}/pushes/product/GIFT-BOX-2026`, true);
  await shot('reconciliation', `${c}/reconciliations`, true);
  const runs = (await (
    await fetch(`${url}/admin/v1/connections/demo/reconciliations?limit=1`, {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    })
  ).json()) as { runs: { id: number }[] };
  await shot('reconciliation-run', `${c}/reconciliations/${runs.runs[0]!.id}`, true);
  await shot('feed', `${c}/feed`);
  await shot('emulator', `${c}/emulator`, true);
  await shot('docs', '/docs');
  await browser.close();
} finally {
  await stack.close();
  tmp.remove();
}
