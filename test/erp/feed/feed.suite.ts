import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErpFeedEntry, FeedPage } from '../../../src/erp/feed/read.js';
import { startTestService, type TestService, testConnection } from '../../support/service.js';

/** `GET /erp/v1/feed` and `/erp/v1/feed/{id}`: the ERP's pull feed of feed entries. */
export function feedSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`ERP feed (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');
    const globex = testConnection('globex');
    const ids: number[] = [];
    let globexId = 0;
    const at = new Date('2026-11-20T10:00:00.000Z');

    const get = (path: string, token: string | null = acme.erpApiToken) =>
      svc.app.request(path, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });

    beforeAll(async () => {
      svc = await startTestService({ label: 'erp-feed', dialect, connections: [acme, globex] });
      for (let i = 1; i <= 5; i++) {
        const { feedEntry } = await svc.deps.store.feed.append({
          connection: 'acme',
          type: i % 2 ? 'reception.closed' : 'stock.adjusted',
          dedupeKey: `k${i}`,
          data: { n: i },
          at: new Date(at.getTime() + i),
        });
        ids.push(feedEntry.id);
      }
      globexId = (
        await svc.deps.store.feed.append({
          connection: 'globex',
          type: 'shipment.closed',
          dedupeKey: 'g',
          data: { secret: 'globex' },
          at,
        })
      ).feedEntry.id;
    });
    afterAll(async () => {
      await svc.close();
    });

    it('pages through the connection’s entries in order; next is the cursor of the following page', async () => {
      const res = await get('/erp/v1/feed?limit=2');
      expect(res.status).toBe(200);
      const page1 = (await res.json()) as FeedPage;
      expect(page1.entries.map((e) => e.id)).toEqual(ids.slice(0, 2));
      expect(page1.next).toBe(ids[1]);
      expect(page1.entries[0]).toEqual({
        id: ids[0],
        type: 'reception.closed',
        createdAt: '2026-11-20T10:00:00.001Z',
        data: { n: 1 },
      });
      const page2 = (await (await get(`/erp/v1/feed?after=${page1.next}&limit=2`)).json()) as FeedPage;
      const page3 = (await (await get(`/erp/v1/feed?after=${page2.next}&limit=2`)).json()) as FeedPage;
      expect([...page2.entries, ...page3.entries].map((e) => e.data.n)).toEqual([3, 4, 5]);
    });

    it('at the end of the feed, entries is empty and next stays where it was', async () => {
      expect(await (await get(`/erp/v1/feed?after=${ids.at(-1)!}`)).json()).toEqual({ entries: [], next: ids.at(-1) });
    });

    it('defaults: after=0, limit=100', async () => {
      const page = (await (await get('/erp/v1/feed')).json()) as FeedPage;
      expect(page.entries).toHaveLength(5);
    });

    it('GET /erp/v1/feed/{id} returns one event', async () => {
      const res = await get(`/erp/v1/feed/${ids[2]!}`);
      expect(res.status).toBe(200);
      expect((await res.json()) as ErpFeedEntry).toMatchObject({
        id: ids[2],
        type: 'reception.closed',
        data: { n: 3 },
      });
    });

    for (const query of ['after=-1', 'after=abc', 'after=1.5', 'limit=0', 'limit=1001', 'limit=ten']) {
      it(`?${query} → 400 naming the parameter`, async () => {
        const res = await get(`/erp/v1/feed?${query}`);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          success: false,
          error: 'validation_failed',
          message: expect.stringContaining(query.split('=')[0]!),
        });
      });
    }

    for (const id of ['abc', '0', '-3']) {
      it(`/erp/v1/feed/${id} → 400`, async () => {
        const res = await get(`/erp/v1/feed/${id}`);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ success: false, message: expect.stringContaining('id') });
      });
    }

    it('an id that does not exist → 404', async () => {
      expect((await get('/erp/v1/feed/999999')).status).toBe(404);
    });

    it('no token, a wrong token, or webhook credentials → 401 with a Bearer challenge, before any validation', async () => {
      for (const res of [
        await get('/erp/v1/feed', null),
        await get('/erp/v1/feed?limit=0', 'x'.repeat(32)),
        await get(`/erp/v1/feed/${ids[0]!}`, null),
      ]) {
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
      const basic = await svc.app.request('/erp/v1/feed', {
        headers: { authorization: `Basic ${Buffer.from('wms-acme:x').toString('base64')}` },
      });
      expect(basic.status).toBe(401);
    });

    it('the token decides the connection: another connection’s entries are neither listed nor readable', async () => {
      const page = (await (await get('/erp/v1/feed?limit=1000', globex.erpApiToken)).json()) as FeedPage;
      expect(page.entries.map((e) => e.id)).toEqual([globexId]);
      expect((await get(`/erp/v1/feed/${globexId}`)).status).toBe(404);
      expect((await get(`/erp/v1/feed/${ids[0]!}`, globex.erpApiToken)).status).toBe(404);
    });
  });
}
