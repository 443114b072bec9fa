import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { FULL_HOLD_MS, storageSpace } from '../../src/store/space.js';
import { ADMIN_TOKEN, post, signInAs } from '../console/support.js';
import { postWebhook, uniquePayload } from '../inbound/support.js';
import { erp, product } from '../push/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';

const MB = 1024 * 1024;
const diskFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

describe('the storage state', () => {
  it('is short below the reserve, and has room again as soon as space is freed', () => {
    let free = 10 * MB;
    const space = storageSpace({ dir: '/data', minFreeBytes: 64 * MB, statFree: () => free, cacheMs: 0 });
    expect(space.shortage()).toMatch(/10\.0 MB free, under the reserve of 64\.0 MB \(DATA_MIN_FREE_MB\)/);
    free = 65 * MB;
    expect(space.shortage()).toBeUndefined();
    expect(space.freeBytes()).toBe(65 * MB);
  });

  it('is short after a full-disk failure until space returns or the hold ends; other failures do not count', () => {
    const clock = new ManualClock();
    let free = 100 * MB;
    const space = storageSpace({ dir: '/data', minFreeBytes: 0, statFree: () => free, clock, cacheMs: 0 });
    space.noteFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(space.shortage()).toBeUndefined();
    space.noteFailure(new Error('the write failed', { cause: diskFull }));
    expect(space.shortage()).toMatch(/disk is full/);
    free += MB;
    expect(space.shortage()).toBeUndefined();
    // Postgres: no free space to measure, so the hold decides.
    const remote = storageSpace({ minFreeBytes: 64 * MB, clock });
    expect(remote.freeBytes()).toBeUndefined();
    expect(remote.walBytes()).toBeUndefined();
    remote.noteFailure(Object.assign(new Error('could not extend file'), { code: '53100' }));
    expect(remote.shortage()).toMatch(/disk is full/);
    clock.advance(FULL_HOLD_MS);
    expect(remote.shortage()).toBeUndefined();
  });
});

describe('a data directory under its free-space reserve', () => {
  let svc: TestService;
  const acme = testConnection('acme');

  beforeAll(async () => {
    // A reserve of a terabyte: more than any test machine's disk has free.
    svc = await startTestService({
      label: 'space-short',
      connections: [acme],
      env: { DATA_MIN_FREE_MB: String(1024 * 1024), ADMIN_TOKEN },
    });
  });
  afterAll(async () => {
    await svc.close();
  });

  // spec: "Any non-2xx response is a failure": the WMS sends the webhook again later.
  it('refuses new webhooks with 503 and Retry-After, storing nothing', async () => {
    const res = await postWebhook(svc.app, acme, 'reception-close', uniquePayload('reception-close'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({
      success: false,
      error: 'unavailable',
      message: expect.stringMatching(/short of space.*DATA_MIN_FREE_MB.*not acknowledged/),
    });
    expect(await svc.deps.store.inbox.list({ connection: 'acme', limit: 10 })).toEqual([]);
  });

  it('still checks credentials first: a wrong password is 401, not a hint about the disk', async () => {
    const res = await postWebhook(svc.app, acme, 'reception-close', uniquePayload('reception-close'), {
      auth: `Basic ${Buffer.from('acme:wrong').toString('base64')}`,
    });
    expect(res.status).toBe(401);
  });

  it('keeps the reserve for the other writes: the ERP API still works', async () => {
    const res = await erp(svc.app, acme, 'PUT', '/erp/v1/products/SPACE-1', { json: product('SPACE-1') });
    expect(res.status).toBeLessThan(300);
  });

  it('/readyz says the storage is short (why, to the operator only), /metrics shows it', async () => {
    const anonymous = await svc.app.request('/readyz');
    expect(anonymous.status).toBe(503);
    expect(await anonymous.json()).toMatchObject({ details: { checks: { storage: 'failing', store: 'ok' } } });
    const operator = await svc.app.request('/readyz', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(((await operator.json()) as { message: string }).message).toMatch(/storage: storage short: .*reserve/);
    const metrics = await (await svc.app.request('/metrics')).text();
    expect(metrics).toMatch(/^wms_sync_storage_short 1$/m);
    expect(metrics).toMatch(/^wms_sync_data_min_free_bytes 1099511627776$/m);
    expect(Number(/^wms_sync_data_free_bytes (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(metrics).toMatch(/^wms_sync_sqlite_wal_bytes \d+$/m);
  });
});

describe('every write path while the store is unusable', () => {
  let svc: TestService;
  const acme = testConnection('acme');

  beforeAll(async () => {
    svc = await startTestService({ label: 'space-writes', connections: [acme], env: { ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 503 with Retry-After on the webhooks, the ERP API, the admin API and console actions', async () => {
    expect((await erp(svc.app, acme, 'PUT', '/erp/v1/products/W-1', { json: product('W-1') })).status).toBeLessThan(
      300,
    );
    const op = await signInAs(svc);
    const metrics = await (await svc.app.request('/metrics')).text();
    expect(metrics).toMatch(/^wms_sync_storage_short 0$/m);
    await svc.deps.store.close();
    const answers = [
      await postWebhook(svc.app, acme, 'reception-close', uniquePayload('reception-close')),
      await svc.app.request('/erp/v1/products/W-2', {
        method: 'PUT',
        headers: { authorization: `Bearer ${acme.erpApiToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(product('W-2')),
      }),
      await svc.app.request('/admin/v1/connections/acme/pushes/product/W-1/retry', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
      await post(svc, '/console/connections/acme/pushes/product/W-1/retry', op),
    ];
    for (const res of answers) {
      expect({ status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({
        status: 503,
        retryAfter: '5',
      });
    }
  });
});
