import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_QUEUE } from '../../src/push/job/queue.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, admin, putProduct } from './support.js';

describe('admin API: WMS pushes (list, get, retry, retry failed, cancel)', () => {
  let svc: TestService;
  const acme = testConnection('acme');
  const beta = testConnection('beta');
  const base = '/admin/v1/connections/acme/pushes';

  async function fail(code: string, message = 'Product SKU already exists') {
    const record = (await svc.deps.store.pushes.get('acme', 'product', code))!;
    await svc.deps.store.pushes.recordAttempt(record.id, new Date());
    await svc.deps.store.pushes.markFailed(
      record.id,
      { kind: 'http', status: 400, message, body: { message }, retryable: false },
      new Date(),
    );
  }

  beforeAll(async () => {
    svc = await startTestService({ label: 'admin-pushes', env: { ADMIN_TOKEN }, connections: [acme, beta] });
    for (const code of ['P-1', 'P-2', 'P-3', 'P-4']) await putProduct(svc, acme.erpApiToken, code);
    await putProduct(svc, beta.erpApiToken, 'B-1');
    await fail('P-2');
    await fail('P-4', 'Invalid barcode');
  });
  afterAll(async () => svc.close());

  it('lists one entity newest first with state, attempts and the WMS error, page by page', async () => {
    const first = await admin(svc, 'GET', `${base}?entity=product&limit=3`);
    expect(first.status).toBe(200);
    expect(first.body.records.map((r: any) => r.externalCode)).toEqual(['P-4', 'P-3', 'P-2']);
    expect(first.body.records[0]).toMatchObject({
      state: 'failed',
      attempts: 1,
      inSync: false,
      lastError: { status: 400, message: 'Invalid barcode' },
    });
    expect(first.body.records[0]).not.toHaveProperty('payload');
    const second = await admin(svc, 'GET', `${base}?entity=product&limit=3&before=${first.body.nextBefore}`);
    expect(second.body).toEqual({
      records: [expect.objectContaining({ externalCode: 'P-1', state: 'pending' })],
      nextBefore: null,
    });
  });

  it('filters by state; other connections’ records never show', async () => {
    const failed = await admin(svc, 'GET', `${base}?entity=product&state=failed`);
    expect(failed.body.records.map((r: any) => r.externalCode)).toEqual(['P-4', 'P-2']);
    const beta = await admin(svc, 'GET', '/admin/v1/connections/beta/pushes?entity=product');
    expect(beta.body.records.map((r: any) => r.externalCode)).toEqual(['B-1']);
    expect((await admin(svc, 'GET', `${base}?entity=document`)).body).toEqual({ records: [], nextBefore: null });
  });

  it('refuses a missing or unknown entity, a bad state, before or limit with 400 naming it', async () => {
    for (const [query, name] of [
      ['', 'entity'],
      ['entity=widget', 'entity'],
      ['entity=product&state=lost', 'state'],
      ['entity=product&before=0', 'before'],
      ['entity=product&limit=201', 'limit'],
      ['entity=product&limit=x', 'limit'],
    ]) {
      const res = await admin(svc, 'GET', `${base}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'validation_failed' });
      expect(res.body.message).toContain(name);
    }
  });

  it('gets one record with its payload; 404 for a code of another connection', async () => {
    const res = await admin(svc, 'GET', `${base}/product/P-2`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      externalCode: 'P-2',
      state: 'failed',
      payload: { externalCode: 'P-2', description: 'Product P-2' },
    });
    const other = await admin(svc, 'GET', `${base}/product/B-1`);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, error: 'not_found' });
  });

  it('retries one failed record: pending again with a push job; 409 for a synced one; 404 for an unknown code', async () => {
    const before = (await svc.deps.queue.backlog(PUSH_QUEUE)).waiting;
    const res = await admin(svc, 'POST', `${base}/product/P-2/retry`);
    expect(res.status).toBe(202);
    expect(res.body.retried).toEqual([expect.objectContaining({ externalCode: 'P-2', state: 'pending' })]);
    expect((await svc.deps.queue.backlog(PUSH_QUEUE)).waiting).toBe(before + 1);
    expect((await admin(svc, 'POST', `${base}/product/NOPE/retry`)).status).toBe(404);
    const record = (await svc.deps.store.pushes.get('acme', 'product', 'P-3'))!;
    await svc.deps.store.pushes.markSynced(record.id, record.payloadHash, new Date());
    const synced = await admin(svc, 'POST', `${base}/product/P-3/retry`);
    expect(synced.status).toBe(409);
    expect(synced.body.message).toContain('synced');
  });

  it('retries every failed record of an entity, and answers how many', async () => {
    await fail('P-1');
    const res = await admin(svc, 'POST', `${base}/retry-failed`, { body: { entity: 'product' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ retried: 2 });
    expect((await admin(svc, 'GET', `${base}?entity=product&state=failed`)).body.records).toEqual([]);
    expect((await admin(svc, 'POST', `${base}/retry-failed`)).body).toEqual({ retried: 0 });
    const bad = await admin(svc, 'POST', `${base}/retry-failed`, { body: { entity: 'widget' } });
    expect(bad.status).toBe(400);
    const extra = await admin(svc, 'POST', `${base}/retry-failed`, { body: { entity: 'product', all: true } });
    expect(extra.status).toBe(400);
  });

  it('cancels a document wms-sync holds (a cancel record queued); 404 for an unknown document', async () => {
    const res = await svc.app.request('/erp/v1/documents/PO-1', {
      method: 'PUT',
      headers: { authorization: `Bearer ${acme.erpApiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        externalCode: 'PO-1',
        documentNumber: 'PO 1',
        documentType: 'PURCHASE_ORDER',
        lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'P-1' }],
      }),
    });
    expect(res.status).toBeLessThan(300);
    const cancel = await admin(svc, 'POST', `${base}/document/PO-1/cancel`);
    expect(cancel.status).toBe(202);
    expect(cancel.body).toMatchObject({
      changed: true,
      cancel: {
        entity: 'document-cancel',
        externalCode: 'PO-1',
        state: 'pending',
        payload: { documentType: 'PURCHASE_ORDER' },
      },
    });
    expect((await admin(svc, 'POST', `${base}/document/PO-9/cancel`)).status).toBe(404);
    expect((await admin(svc, 'POST', '/admin/v1/connections/beta/pushes/document/PO-1/cancel')).status).toBe(404);
  });
});
