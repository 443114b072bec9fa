import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventsCapped } from '../../src/inbound/event-list-page.js';
import { fixture, postWebhook } from '../inbound/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { ADMIN_TOKEN, get, type Operator, ORIGIN, post, signInAs } from './support.js';

/** The inbound events pages through app.request(): list and filters, detail, correction, retry, bulk retry. */
export function eventsPagesSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`console: inbound events pages (${dialect})`, () => {
    let svc: TestService;
    let op: Operator;
    const acme = testConnection('acme');
    const beta = testConnection('beta');
    const c = '/console/connections/acme';
    const evil = '<img src=x onerror=alert(1)>';
    const ids = { quarantined: 0, evil: 0, processed: 0, rejected: 0, beta: 0 };
    const html = async (path: string) => {
      const res = await get(svc, path, op);
      expect(res.status, path).toBe(200);
      return res.text();
    };
    const adminJson = async (method: string, path: string, body?: unknown) => {
      const res = await svc.app.request(`/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await res.json()) as any;
    };
    const statusOf = async (id: number) => (await svc.deps.store.inbox.get(id))!.status;
    const newest = async (connection: string) => (await svc.deps.store.inbox.list({ connection, limit: 1 }))[0]!.id;
    const flashOf = (res: Response) => {
      const raw = res.headers
        .getSetCookie()
        .find((x) => x.startsWith('wms_console_flash='))!
        .split(';')[0]!
        .split('=')[1]!;
      return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')).message as string;
    };

    beforeAll(async () => {
      svc = await startTestService({
        label: 'console-events',
        dialect,
        env: { ADMIN_TOKEN, QUEUE_POLL_INTERVAL_MS: '50' },
        connections: [acme, beta],
        worker: true,
      });
      op = await signInAs(svc);
      const reg = fixture('stock-regularization');
      expect(
        (
          await postWebhook(svc.app, acme, 'shipping-order-close', {
            ...fixture('shipping-order-close'),
            closingDocumentCode: 'SHIP-OK-1',
          })
        ).status,
      ).toBe(200);
      ids.processed = await newest('acme');
      await until(async () => (await statusOf(ids.processed)) === 'processed', {
        message: 'the good webhook processed',
      });
      expect((await postWebhook(svc.app, acme, 'reception-close', { documentExternalCode: 'NO-CODE' })).status).toBe(
        400,
      );
      ids.rejected = await newest('acme');
      expect(
        (
          await postWebhook(svc.app, acme, 'stock-regularization', {
            ...reg,
            productExternalCode: evil,
            quantity: 'lots',
          })
        ).status,
      ).toBe(200);
      ids.evil = await newest('acme');
      expect(
        (
          await postWebhook(svc.app, acme, 'stock-regularization', {
            ...reg,
            productExternalCode: 'OIL-Q',
            quantity: 'a few',
          })
        ).status,
      ).toBe(200);
      ids.quarantined = await newest('acme');
      expect(
        (
          await postWebhook(svc.app, beta, 'stock-regularization', {
            ...reg,
            productExternalCode: 'BETA-ONLY',
            quantity: 'x',
          })
        ).status,
      ).toBe(200);
      ids.beta = await newest('beta');
    });
    afterAll(async () => svc.close());

    it('lists the connection’s events newest first, with the total, the reason, escaped codes; other connections absent', async () => {
      const page = await html(`${c}/events`);
      const order = [ids.quarantined, ids.evil, ids.rejected, ids.processed].map((id) =>
        page.indexOf(`href="${c}/events/${id}"`),
      );
      expect(order.every((x) => x > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(page).toContain('4 events match');
      expect(page).toContain('quantity: expected a number, got &quot;a few&quot;');
      expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(page).not.toContain(evil);
      expect(page).not.toContain('BETA-ONLY');
      expect(page).toMatch(/<a href="\/console\/connections\/acme\/events" class="active"/);
      // The overview says how many wait for an operator (any age) and links to them.
      const overview = await html(`${c}/overview`);
      expect(overview).toMatch(
        /data-metric="attention.quarantined">\s*<a href="\/console\/connections\/acme\/events\?status=quarantined">2<\/a>/,
      );
      expect(overview).toMatch(/data-metric="attention.failed">0</);
    });

    it('filters by status, kind, business code and time range, as the admin API does', async () => {
      const quarantined = await html(`${c}/events?status=quarantined`);
      expect(quarantined).toContain('2 events match');
      expect(quarantined).not.toContain(`href="${c}/events/${ids.processed}"`);
      const byKind = await html(`${c}/events?kind=shipping-order-close`);
      expect(byKind).toContain('1 event match');
      expect(byKind).toContain(`href="${c}/events/${ids.processed}"`);
      const byCode = await html(`${c}/events?code=OIL-Q&status=`);
      expect(byCode).toContain('1 event match');
      expect(byCode).toContain(`href="${c}/events/${ids.quarantined}"`);
      // A datetime-local value (no offset) is read as UTC; the future holds nothing.
      const received = (await svc.deps.store.inbox.get(ids.quarantined))!.receivedAt;
      const local = received.toISOString().slice(0, 19);
      const fromThen = await html(`${c}/events?from=${local}`);
      expect(fromThen).toContain(`href="${c}/events/${ids.quarantined}"`);
      expect(fromThen).toContain(`value="${local}"`);
      expect(await html(`${c}/events?from=2999-01-01T00:00`)).toContain('0 events match');
      expect(await html(`${c}/events?to=2000-01-01T00:00:00Z`)).toContain('No event matches these filters');
      const api = await adminJson('GET', '/events?connection=acme&status=quarantined');
      expect(api.total).toBe(2);
    });

    it('counts no further than the cap: past it the list says "more than", with the admin API’s rows and cursor', async () => {
      const api = await adminJson('GET', '/events?connection=acme&limit=2');
      const capped = await listEventsCapped(svc.deps.store, { connection: 'acme' }, { limit: 2 }, 3);
      expect(capped).toMatchObject({ total: 3, more: true, nextCursor: api.nextCursor });
      expect(capped.events).toEqual(api.events);
      expect(await listEventsCapped(svc.deps.store, { connection: 'acme' }, { limit: 2 }, 4)).toMatchObject({
        total: 4,
        more: false,
      });
      expect(
        await listEventsCapped(svc.deps.store, { connection: 'acme', status: 'quarantined' }, { limit: 2 }, 1),
      ).toMatchObject({ total: 1, more: true });
      expect(
        await listEventsCapped(svc.deps.store, { connection: 'acme', status: 'quarantined' }, { limit: 2 }, 2),
      ).toMatchObject({ total: 2, more: false });
    });

    it('pages with a keyset cursor: each event once, newest first', async () => {
      const first = await html(`${c}/events?limit=3`);
      const older = /href="([^"]*before=\d+[^"]*)"/.exec(first)?.[1]?.replace(/&amp;/g, '&');
      expect(older).toBeDefined();
      const second = await html(older!);
      expect(second).toContain(`href="${c}/events/${ids.processed}"`);
      expect(second).not.toContain(`href="${c}/events/${ids.quarantined}"`);
      expect(second).toContain('← Newest');
    });

    it('answers a bad filter with 400 naming it; another connection’s event, or none, with 404', async () => {
      for (const [query, name] of [
        ['status=lost', 'status'],
        ['kind=parcel', 'kind'],
        ['from=yesterday', 'from'],
        ['before=abc', 'before'],
        ['limit=0', 'limit'],
      ] as const) {
        const res = await get(svc, `${c}/events?${query}`, op);
        expect(res.status, query).toBe(400);
        expect(await res.text()).toContain(`${name}:`);
      }
      expect((await get(svc, `${c}/events/${ids.beta}`, op)).status).toBe(404);
      expect((await get(svc, `${c}/events/999999`, op)).status).toBe(404);
      expect((await get(svc, `${c}/events/${ids.beta}/edit`, op)).status).toBe(404);
      expect((await post(svc, `${c}/events/${ids.beta}/retry`, op)).status).toBe(404);
      expect(await svc.deps.store.inbox.get(ids.beta)).toMatchObject({ status: 'quarantined' });
    });

    it('detail: the raw body pretty-printed and escaped, the reason, attempts; edit and retry offered', async () => {
      const page = await html(`${c}/events/${ids.evil}`);
      expect(page).toContain('&quot;productExternalCode&quot;: &quot;&lt;img src=x onerror=alert(1)&gt;&quot;');
      expect(page).not.toContain(evil);
      expect(page).toContain('Quarantined: ');
      expect(page).toContain(`href="${c}/events/${ids.evil}/edit"`);
      expect(page).toContain(`action="${c}/events/${ids.evil}/retry"`);
      expect(page).toContain('None yet: the event has not been processed.');
      const rejected = await html(`${c}/events/${ids.rejected}`);
      expect(rejected).toContain('Refused on arrival');
      expect(rejected).not.toContain('/retry"');
      expect(rejected).not.toContain('/edit"');
    });

    it('detail of a processed event: its attempts and the feed entries it produced, linked to the feed', async () => {
      const detail = await adminJson('GET', `/events/${ids.processed}`);
      expect(detail.feedEntries.length).toBeGreaterThan(0);
      const page = await html(`${c}/events/${ids.processed}`);
      const first = detail.feedEntries[0];
      expect(page).toContain(`href="${c}/feed?after=${first.id - 1}"`);
      expect(page).toContain(first.type);
      expect(page).toMatch(/<span class="badge ok">Processed<\/span>/);
      expect(page).toContain('Process again');
      expect((await get(svc, `${c}/events/${ids.processed}/edit`, op)).status).toBe(409);
    });

    it('edit: the editor shows the current problems; the server check (htmx) answers bad JSON, the schema’s problems, or the changes', async () => {
      const page = await html(`${c}/events/${ids.quarantined}/edit`);
      expect(page).toContain('hx-post="/console/connections/acme/events/');
      expect(page).toContain('data-check="problems"');
      expect(page).toContain('quantity</span>: expected a number');
      const check = (payload: string) =>
        post(svc, `${c}/events/${ids.quarantined}/edit/check`, op, { payload }, { 'hx-request': 'true' });
      const notJson = await check('{"quantity": ');
      expect(notJson.status).toBe(200);
      const notJsonText = await notJson.text();
      expect(notJsonText).toContain('data-check="not-json"');
      expect(notJsonText).not.toContain('<html');
      expect(
        await (
          await check(
            JSON.stringify({
              ...fixture('stock-regularization'),
              productExternalCode: 'OIL-Q',
              quantity: 'still a few',
            }),
          )
        ).text(),
      ).toContain('quantity</span>: expected a number, got &quot;still a few&quot;');
      const good = await (
        await check(JSON.stringify({ ...fixture('stock-regularization'), productExternalCode: 'OIL-Q', quantity: 3 }))
      ).text();
      expect(good).toContain('data-check="ok"');
      expect(good).toContain('quantity</span>: &quot;a few&quot; → 3');
      // A check stores nothing.
      expect(await svc.deps.store.inbox.editsOf(ids.quarantined)).toEqual([]);
      // Without the session's CSRF token, even the check is refused.
      const forged = await svc.app.request(`${c}/events/${ids.quarantined}/edit/check`, {
        method: 'POST',
        headers: { cookie: op.cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'payload=%7B%7D',
      });
      expect(forged.status).toBe(403);
    });

    it('edit: saving bad JSON or a payload with problems re-renders the editor (400) and stores nothing; a fix is saved, processed, in the feed', async () => {
      const bad = await post(svc, `${c}/events/${ids.quarantined}/edit`, op, { payload: '{oops' });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('{oops</textarea>');
      const still = await post(svc, `${c}/events/${ids.quarantined}/edit`, op, {
        payload: JSON.stringify({ ...fixture('stock-regularization'), productExternalCode: 'OIL-Q', quantity: null }),
      });
      expect(still.status).toBe(400);
      expect(await still.text()).toContain('data-check="problems"');
      expect(await svc.deps.store.inbox.editsOf(ids.quarantined)).toEqual([]);

      const fixed = { ...fixture('stock-regularization'), productExternalCode: 'OIL-Q', quantity: 3 };
      const saved = await post(svc, `${c}/events/${ids.quarantined}/edit`, op, { payload: JSON.stringify(fixed) });
      expect(saved.status).toBe(303);
      expect(saved.headers.get('location')).toBe(`${c}/events/${ids.quarantined}`);
      expect(flashOf(saved)).toMatch(/Correction saved \(1 change\)/);
      const edits = await svc.deps.store.inbox.editsOf(ids.quarantined);
      expect(edits).toHaveLength(1);
      expect(edits[0]!.actor).toBe('admin');
      await until(async () => (await statusOf(ids.quarantined)) === 'processed', {
        message: 'the corrected event processed',
      });
      const page = await html(`${c}/events/${ids.quarantined}`);
      expect(page).toContain('Corrected payload (what processing reads)');
      expect(page).toContain('&quot;quantity&quot;: 3');
      expect(page).toContain('&quot;quantity&quot;: &quot;a few&quot;');
      expect(page).toMatch(/<span class="mono">quantity<\/span>: <code>&quot;a few&quot;<\/code> → <code>3<\/code>/);
      expect(page).toContain('stock.adjusted');
      // Once processed, it cannot be corrected any more.
      const late = await post(svc, `${c}/events/${ids.quarantined}/edit`, op, {
        payload: JSON.stringify({ ...fixed, quantity: 4 }),
      });
      expect(late.status).toBe(409);
    });

    it('retry of one event: queued again (back where it was clicked); a rejected one refused with the reason; no CSRF token, no retry', async () => {
      const attemptsBefore = (await svc.deps.store.inbox.attemptsOf(ids.evil)).length;
      const res = await post(svc, `${c}/events/${ids.evil}/retry`, op, { next: `${c}/events?status=quarantined` });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`${c}/events?status=quarantined`);
      expect(flashOf(res)).toBe(`Event ${ids.evil} is queued for processing again.`);
      // Processed again by the worker: one more attempt, and (still unreadable) quarantined again.
      await until(
        async () =>
          (await svc.deps.store.inbox.attemptsOf(ids.evil)).length > attemptsBefore &&
          (await statusOf(ids.evil)) === 'quarantined',
        { message: 'read again, still quarantined' },
      );

      const rejected = await post(svc, `${c}/events/${ids.rejected}/retry`, op);
      expect(rejected.status).toBe(303);
      expect(flashOf(rejected)).toMatch(/refused on arrival/);
      expect(await statusOf(ids.rejected)).toBe('rejected');

      const noToken = await svc.app.request(`${c}/events/${ids.evil}/retry`, {
        method: 'POST',
        headers: { cookie: op.cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(noToken.status).toBe(403);
      const crossSite = await post(svc, `${c}/events/${ids.evil}/retry`, op, {}, { origin: 'http://evil.example' });
      expect(crossSite.status).toBe(403);
      expect((await post(svc, `${c}/events/${ids.evil}/retry`, undefined)).status).toBe(401);
    });

    it('bulk retry: a feed entry with the admin API’s count for the filter, then the retry of exactly those', async () => {
      // Two more quarantined events of the filter's kind; the processed and rejected ones never count.
      const reg = fixture('stock-regularization');
      for (const q of ['one', 'two'])
        expect(
          (
            await postWebhook(svc.app, acme, 'stock-regularization', {
              ...reg,
              productExternalCode: `BULK-${q}`,
              quantity: q,
            })
          ).status,
        ).toBe(200);
      const dry = await adminJson('POST', '/events/retry', {
        connection: 'acme',
        kind: 'stock-regularization',
        dryRun: true,
      });
      expect(dry.matched).toBe(3);
      const confirm = await html(`${c}/events/retry?kind=stock-regularization`);
      expect(confirm).toContain('This will touch <strong>3</strong>');
      expect(confirm).toContain('Retry 3 now');
      expect(confirm).toContain('name="kind" value="stock-regularization"');
      expect(await html(`${c}/events?kind=stock-regularization`)).toContain(
        `href="${c}/events/retry?kind=stock-regularization"`,
      );
      const none = await html(`${c}/events/retry?code=NOTHING`);
      expect(none).toContain('This will touch <strong>0</strong>');
      expect(none).not.toContain('Retry 0 now');
      const wrong = await get(svc, `${c}/events/retry?status=processed`, op);
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain('a bulk retry applies to failed and quarantined events only');
      expect((await get(svc, `${c}/events/retry?from=soon`, op)).status).toBe(400);

      const res = await post(svc, `${c}/events/retry`, op, { kind: 'stock-regularization', status: '' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`${c}/events?kind=stock-regularization`);
      expect(flashOf(res)).toMatch(/^3 event\(s\) queued for processing again/);
      // The other connection's quarantined event was not touched.
      expect((await svc.deps.store.inbox.attemptsOf(ids.beta)).length).toBe(0);
    });

    it('overview: the last 24 h’s counts by outcome link to the filtered list', async () => {
      const page = await html(`${c}/overview`);
      const link = /data-metric="inbound.totals.rejected">\s*<a href="([^"]+)">1<\/a>/
        .exec(page)?.[1]
        ?.replace(/&amp;/g, '&');
      expect(link).toMatch(/^\/console\/connections\/acme\/events\?status=rejected&from=\d{4}-/);
      const list = await html(link!);
      expect(list).toContain('1 event match');
      expect(list).toContain(`href="${c}/events/${ids.rejected}"`);
    });
  });
}
