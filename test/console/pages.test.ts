import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_QUEUE } from '../../src/push/job/queue.js';
import { putProduct } from '../admin/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, get, type Operator, post, signInAs } from './support.js';

describe('console pages (server-rendered, through app.request)', () => {
  let svc: TestService;
  let op: Operator;
  const acme = testConnection('acme');
  const beta = testConnection('beta');
  const c = '/console/connections/acme';
  const at = new Date('2026-11-20T10:00:00.000Z');
  const html = async (path: string) => {
    const res = await get(svc, path, op);
    expect(res.status, path).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    svc = await startTestService({ label: 'console-pages', env: { ADMIN_TOKEN }, connections: [acme, beta] });
    op = await signInAs(svc);
    for (const code of ['P-1', 'P-2', '<b>P-3</b>']) await putProduct(svc, acme.erpApiToken, code);
    await putProduct(svc, beta.erpApiToken, 'BETA-ONLY');
    const p2 = (await svc.deps.store.pushes.get('acme', 'product', 'P-2'))!;
    await svc.deps.store.pushes.markFailed(
      p2.id,
      { kind: 'wms', status: 400, message: 'Product SKU <script>alert(1)</script> already exists' },
      at,
    );
    const run = await svc.deps.store.reconciliation.createRun({ connection: 'acme', trigger: 'schedule', at });
    await svc.deps.store.reconciliation.startRun(run.id, at);
    await svc.deps.store.reconciliation.addItems([
      {
        runId: run.id,
        connection: 'acme',
        productExternalCode: 'P-1',
        lotCode: 'L1',
        status: 'drift',
        wmsExistence: 7,
        expectedExistence: 10,
        delta: -3,
        at,
      },
    ]);
    await svc.deps.store.reconciliation.finishRun(run.id, { status: 'completed', reason: null, at });
    for (let i = 1; i <= 3; i++)
      await svc.deps.store.feed.append({
        connection: 'acme',
        type: 'stock.adjusted',
        dedupeKey: `s${i}`,
        data: { productExternalCode: `P-${i}`, quantity: i },
        at,
      });
  });
  afterAll(async () => svc.close());

  it('overview: the counts, the chart (inline SVG), the live fragment htmx polls', async () => {
    const page = await html(`${c}/overview`);
    expect(page).toContain('<svg class="chart"');
    expect(page).toMatch(/data-metric="pushes.totals.failed">\s*<a[^>]*>1<\/a>/);
    expect(page).toContain('hx-trigger="every 5s"');
    const live = await html(`${c}/overview/live`);
    expect(live).not.toContain('<html');
    expect(live).toContain('data-metric="pushes.totals.pending"');
  });

  it('pushes list: the entity’s records newest first, the WMS error escaped, other connections absent', async () => {
    const page = await html(`${c}/pushes?entity=product`);
    expect(page.indexOf('&lt;b&gt;P-3&lt;/b&gt;')).toBeLessThan(page.indexOf('>P-2<'));
    expect(page).toContain('HTTP 400: Product SKU &lt;script&gt;alert(1)&lt;/script&gt; already exists');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toContain('BETA-ONLY');
    const failed = await html(`${c}/pushes?entity=product&state=failed`);
    expect(failed).toContain('>P-2<');
    expect(failed).not.toContain('>P-1<');
  });

  it('pushes list pages with a keyset cursor', async () => {
    const first = await html(`${c}/pushes?entity=product&limit=2`);
    const older = /href="([^"]*before=\d+[^"]*)"/.exec(first)?.[1]?.replace(/&amp;/g, '&');
    expect(older).toBeDefined();
    const second = await html(older!);
    expect(second).toContain('>P-1<');
    expect(second).not.toContain('>P-2<');
  });

  it('answers a bad filter with 400 naming it, an unknown connection or record with 404', async () => {
    const bad = await get(svc, `${c}/pushes?entity=widget`, op);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('entity');
    expect((await get(svc, '/console/connections/nobody/overview', op)).status).toBe(404);
    expect((await get(svc, `${c}/pushes/product/BETA-ONLY`, op)).status).toBe(404);
    expect((await get(svc, `${c}/pushes/widget/P-1`, op)).status).toBe(404);
    expect((await get(svc, `${c}/reconciliations/999`, op)).status).toBe(404);
    expect((await get(svc, `${c}/nothing-here`, op)).status).toBe(404);
  });

  it('record detail: payload, state, error, and retry puts it back in line (post/redirect/get with a notice)', async () => {
    const page = await html(`${c}/pushes/product/P-2`);
    expect(page).toContain('&quot;description&quot;: &quot;Product P-2&quot;');
    expect(page).toContain('Retry now');
    const before = (await svc.deps.queue.backlog(PUSH_QUEUE)).waiting;
    const res = await post(svc, `${c}/pushes/product/P-2/retry`, op);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${c}/pushes/product/P-2`);
    expect((await svc.deps.store.pushes.get('acme', 'product', 'P-2'))!.state).toBe('pending');
    expect((await svc.deps.queue.backlog(PUSH_QUEUE)).waiting).toBe(before + 1);
    const flash = res.headers
      .getSetCookie()
      .find((x) => x.startsWith('wms_console_flash='))!
      .split(';')[0]!;
    const after = await svc.app.request(res.headers.get('location')!, {
      headers: { cookie: `${op.cookie}; ${flash}` },
    });
    expect(await after.text()).toContain('P-2: queued for another push now.');
  });

  it('retry of failed records: a confirmation with the count first, then the bulk retry', async () => {
    const p1 = (await svc.deps.store.pushes.get('acme', 'product', 'P-1'))!;
    await svc.deps.store.pushes.markFailed(p1.id, { status: 400, message: 'no' }, at);
    const confirm = await html(`${c}/pushes/retry-failed?entity=product`);
    expect(confirm).toMatch(/This will touch <strong>1<\/strong> failed products/);
    const res = await post(svc, `${c}/pushes/retry-failed`, op, { entity: 'product' });
    expect(res.status).toBe(303);
    expect((await svc.deps.store.pushes.get('acme', 'product', 'P-1'))!.state).toBe('pending');
    expect((await post(svc, `${c}/pushes/retry-failed`, op, { entity: 'widget' })).status).toBe(400);
  });

  it('cancel of a document queues its cancel record', async () => {
    const put = await svc.app.request('/erp/v1/documents/PO-1', {
      method: 'PUT',
      headers: { authorization: `Bearer ${acme.erpApiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        externalCode: 'PO-1',
        documentNumber: 'PO 1',
        documentType: 'PURCHASE_ORDER',
        lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'P-1' }],
      }),
    });
    expect(put.status).toBeLessThan(300);
    expect(await html(`${c}/pushes/document/PO-1`)).toContain(`href="${c}/pushes/document/PO-1/cancel"`);
    // Asked first, with scripts or without: the page's form carries the answer.
    const ask = await html(`${c}/pushes/document/PO-1/cancel`);
    expect(ask).toContain('Cancel this document in the WMS?');
    expect(ask).toMatch(/name="confirmed" value="yes"/);
    const unconfirmed = await post(svc, `${c}/pushes/document/PO-1/cancel`, op);
    expect(unconfirmed.status).toBe(303);
    expect(unconfirmed.headers.get('location')).toBe(`${c}/pushes/document/PO-1/cancel`);
    expect(await svc.deps.store.pushes.get('acme', 'document-cancel', 'PO-1')).toBeUndefined();
    const res = await post(svc, `${c}/pushes/document/PO-1/cancel`, op, { confirmed: 'yes' });
    expect(res.status).toBe(303);
    expect((await svc.deps.store.pushes.get('acme', 'document-cancel', 'PO-1'))!.state).toBe('pending');
    expect((await post(svc, `${c}/pushes/document/PO-404/cancel`, op, { confirmed: 'yes' })).status).toBe(404);
    expect((await get(svc, `${c}/pushes/document/PO-404/cancel`, op)).status).toBe(404);
    // Without a session the confirmation is not shown either.
    expect((await get(svc, `${c}/pushes/document/PO-1/cancel`)).status).not.toBe(200);
  });

  it('reconciliation: runs with the drift chart, a run’s drift table, and starting a run', async () => {
    const list = await html(`${c}/reconciliations`);
    expect(list).toContain('Drift found per run');
    expect(list).toMatch(/<rect class="tone-bad"/);
    const runId = /reconciliations\/(\d+)"/.exec(list)![1];
    const run = await html(`${c}/reconciliations/${runId}`);
    expect(run).toMatch(/<td class="num"><strong class="error-text">-3<\/strong><\/td>/);
    expect(run).not.toContain('hx-trigger');
    const started = await post(svc, `${c}/reconciliations`, op);
    expect(started.status).toBe(303);
    const location = started.headers.get('location')!;
    expect(location).toMatch(/\/reconciliations\/\d+$/);
    // A queued run's page follows it (htmx polling) until it ends.
    expect(await html(location)).toContain('hx-trigger="every 2s"');
  });

  it('ERP feed: the latest first, refreshing; with a cursor, what the ERP reads after it', async () => {
    const latest = await html(`${c}/feed`);
    expect(latest.indexOf('P-3 · quantity +3')).toBeLessThan(latest.indexOf('P-1 · quantity +1'));
    expect(latest).toContain('hx-trigger="every 3s"');
    const after = await html(`${c}/feed?after=1`);
    expect(after.indexOf('P-2 · quantity +2')).toBeLessThan(after.indexOf('P-3 · quantity +3'));
    expect(after).not.toContain('P-1 · quantity +1');
    expect((await get(svc, `${c}/feed?after=-1`, op)).status).toBe(400);
  });

  it('the emulator panel exists only under wms-sync start (404 here, no navigation entry)', async () => {
    expect((await get(svc, `${c}/emulator`, op)).status).toBe(404);
    expect((await post(svc, `${c}/emulator/regularization`, op, { product: 'P-1', quantity: '1' })).status).toBe(404);
    expect(await html(`${c}/overview`)).not.toContain('>Emulator<');
  });

  it('the connection switcher keeps the page', async () => {
    const res = await get(svc, '/console/go?connection=beta&page=feed', op);
    expect(res.headers.get('location')).toBe('/console/connections/beta/feed');
    expect((await get(svc, '/console/go?connection=nobody', op)).status).toBe(404);
  });
});
