import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/wait.js';
import { type PushHarness, startPushHarness, wmsGet } from './push-harness.js';
import { code, document, erp, product } from './support.js';

const API = '/api/external/v1';

/** Pushes when the WMS or the network misbehave (retries from 20 ms, 6 attempts, 2 s wait bound). */
export function pushResilienceSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`push jobs when things go wrong (${dialect})`, () => {
    let h: PushHarness;
    beforeAll(async () => {
      h = await startPushHarness(`push-res-${dialect}`, dialect, { PUSH_DEPENDENCY_TIMEOUT_SECONDS: '2' });
    });
    afterEach(() => h.proxy.clear());
    afterAll(async () => h.close());

    const wmsDocuments = async (externalCode: string) =>
      (await wmsGet(h, `/document?externalCode.equals=${externalCode}`)).body as unknown[];

    it('a create whose answer was lost (a timeout, a dropped connection) is repeated safely: exactly one document in the WMS', async () => {
      const [p, doc] = [code('P'), code('PO')];
      await h.put('products', p, product(p));
      await h.settled('product', p);
      // The WMS creates the document, but its answer never reaches us.
      h.proxy.inject({ method: 'POST', path: `${API}/document`, lose: true });
      await h.put('documents', doc, document(doc, [p], { documentType: 'PURCHASE_ORDER' }));
      const synced = await h.settled('document', doc);
      expect(synced.state).toBe('synced');
      expect(synced.attempts).toBe(2);
      // spec: "Endpoint 9 uses externalCode as idempotency key."
      expect(await wmsDocuments(doc)).toHaveLength(1);
      const posts = h.proxy.requests.filter((r) => r.method === 'POST' && r.path === `${API}/document`);
      expect(posts.slice(-2).map((r) => r.outcome)).toEqual(['lost', 'forwarded']);
    });

    it('when the document changed while its create was in flight, and that answer was lost, the WMS ends with the newer version', async () => {
      const [p, doc] = [code('P'), code('SO')];
      await h.put('products', p, product(p));
      await h.settled('product', p);
      h.proxy.inject({ method: 'POST', path: `${API}/document`, hold: true, lose: true });
      await h.put('documents', doc, document(doc, [p], { reference: 'first' }));
      await until(
        () =>
          h.proxy.requests.some((r) => r.outcome === 'held' && r.path === `${API}/document` && r.status !== undefined),
        { message: 'first version created in the WMS' },
      );
      await h.put('documents', doc, document(doc, [p], { reference: 'second' }));
      h.proxy.release();
      const synced = await h.settled('document', doc, (r) => r.state === 'synced' && r.payload.reference === 'second');
      expect(synced.syncedHash).toBe(synced.payloadHash);
      expect(await wmsDocuments(doc)).toHaveLength(1);
      expect((await wmsGet(h, `/document/${doc}`)).body.reference).toBe('second');
    });

    it('5xx answers are retried with backoff until synced', async () => {
      const p = code('P');
      h.proxy.inject({
        method: 'POST',
        path: `${API}/product`,
        status: 503,
        body: { title: 'Service Unavailable' },
        count: 2,
      });
      await h.put('products', p, product(p));
      const synced = await h.settled('product', p);
      expect(synced).toMatchObject({ state: 'synced', attempts: 3, lastError: null });
    });

    it('dropped connections are retried until synced', async () => {
      const p = code('P');
      h.proxy.inject({ method: 'POST', path: `${API}/product`, drop: true, count: 2 });
      await h.put('products', p, product(p));
      expect(await h.settled('product', p)).toMatchObject({ state: 'synced', attempts: 3 });
      expect((await wmsGet(h, `/product/${p}`)).status).toBe(200);
    });

    it('429 with Retry-After: the next attempt waits at least that long (backoff alone would be ~20 ms)', async () => {
      const p = code('P');
      h.proxy.inject({ method: 'POST', path: `${API}/product`, status: 429, headers: { 'retry-after': '1' } });
      // The retry's answer is held, so the record is seen between the two attempts whatever the load.
      h.proxy.inject({ method: 'POST', path: `${API}/product`, hold: true });
      await h.put('products', p, product(p));
      await until(() => h.proxy.requests.some((r) => r.outcome === 'held' && r.path === `${API}/product`), {
        message: 'the retry sent',
      });
      const pending = (await h.svc.deps.store.pushes.get('acme', 'product', p))!;
      expect(pending).toMatchObject({ state: 'pending', lastError: { status: 429, retryable: true, attempts: 1 } });
      // When the next attempt comes, for the console's "next at": Retry-After's second at the earliest.
      const error = pending.lastError as { at: string; nextAttemptAt: string };
      expect(Date.parse(error.nextAttemptAt) - Date.parse(error.at)).toBeGreaterThanOrEqual(1000);
      h.proxy.release();
      expect(await h.settled('product', p)).toMatchObject({ state: 'synced', attempts: 2 });
      const posts = h.proxy.requests.filter((r) => r.method === 'POST' && r.path === `${API}/product`).slice(-2);
      expect(posts[0]!.status).toBe(429);
      expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(1000);
    });

    it('a WMS that keeps failing: failed after PUSH_MAX_ATTEMPTS with the last error; retried once it is back', async () => {
      const p = code('P');
      h.proxy.inject({
        method: 'POST',
        path: `${API}/product`,
        status: 500,
        body: { detail: 'database down' },
        count: 1000,
      });
      await h.put('products', p, product(p));
      const failed = await h.settled('product', p);
      expect(failed).toMatchObject({
        state: 'failed',
        attempts: 6,
        lastError: { status: 500, message: 'database down', retryable: true },
      });
      h.proxy.clear();
      expect((await erp(h.svc.app, h.acme, 'POST', `/erp/v1/products/${p}/retry`)).status).toBe(202);
      expect((await h.settled('product', p)).state).toBe('synced');
    });

    it('a document whose product never comes fails after the bounded wait, with the reason; it goes once fixed', async () => {
      const [p, doc] = [code('P'), code('SO')];
      await h.put('documents', doc, document(doc, [p]));
      const failed = await h.settled('document', doc, (r) => r.state === 'failed', 20_000);
      expect(failed.attempts).toBe(0);
      expect(failed.lastError).toMatchObject({
        kind: 'dependencies',
        message: `gave up after waiting 2 s for product ${p} (not sent to wms-sync and not in the WMS)`,
        waitingFor: [{ entity: 'product', externalCode: p, state: 'unknown' }],
      });
      expect(await h.svc.deps.store.pushes.waitsOf(failed.id)).toEqual([]);
      expect(await wmsDocuments(doc)).toHaveLength(0);
      await h.put('products', p, product(p));
      await h.settled('product', p);
      expect((await erp(h.svc.app, h.acme, 'POST', `/erp/v1/documents/${doc}/retry`)).status).toBe(202);
      expect((await h.settled('document', doc)).state).toBe('synced');
    });

    it('a payload stored while its older version is being pushed is pushed right after, in order', async () => {
      const p = code('P');
      await h.put('products', p, product(p, { description: 'v1' }));
      await h.settled('product', p);
      h.proxy.inject({ method: 'PUT', path: `${API}/product`, hold: true });
      await h.put('products', p, product(p, { description: 'v2' }));
      await until(() => h.proxy.requests.some((r) => r.method === 'PUT' && r.outcome === 'held'), {
        message: 'v2 sent',
      });
      await h.put('products', p, product(p, { description: 'v3' }));
      h.proxy.release();
      const synced = await h.settled('product', p, (r) => r.state === 'synced' && r.payload.description === 'v3');
      expect(synced.attempts).toBe(3);
      expect((await wmsGet(h, `/product/${p}`)).body.description).toBe('v3');
      const puts = h.proxy.requests.filter((r) => r.method === 'PUT' && r.path === `${API}/product`);
      expect(puts.slice(-2).map((r) => r.outcome)).toEqual(['held', 'forwarded']);
    });
  });
}
