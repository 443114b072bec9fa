import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_QUEUE } from '../../src/inbound/queue.js';
import { fixture, postWebhook, uniquePayload } from '../inbound/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';

const ADMIN_TOKEN = 'admin-token-events-0123456789';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface Summary {
  id: number;
  status: string;
  kind: string;
  connection: string;
  businessCode: string | null;
  quarantineReason: string | null;
  corrected: boolean;
}
interface Page {
  events: Summary[];
  total: number;
  nextCursor: string | null;
}

export function adminEventsSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`admin API: inbound events (list, detail, correction, retry, bulk retry) (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');
    const beta = testConnection('beta');
    const get = (path: string, headers: Record<string, string> = auth) => svc.app.request(path, { headers });
    const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      svc.app.request(path, {
        method,
        headers: { ...auth, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const page = async (query: string) => {
      const res = await get(`/admin/v1/events${query}`);
      expect(res.status).toBe(200);
      return (await res.json()) as Page;
    };
    const eventOf = async (connection: string, key: string) => (await svc.deps.store.inbox.findByKey(connection, key))!;
    const status = (id: number, wanted: string) =>
      until(async () => ((await svc.deps.store.inbox.get(id))?.status === wanted ? true : undefined), {
        message: `event ${id} ${wanted}`,
      });

    const regCode = `OIL-${Date.now()}`;
    let quarantinedReg: number;
    let quarantinedDoc: number;
    let processedDoc: number;
    let rejected: number;
    const docCode = `REC-ADMIN-${Date.now()}`;

    beforeAll(async () => {
      svc = await startTestService({
        label: 'admin-events',
        dialect,
        env: { ADMIN_TOKEN, QUEUE_POLL_INTERVAL_MS: '50' },
        connections: [acme, beta],
        worker: true,
      });
      // A regularization without a quantity, a reception with a line without a product, a good reception, a refused one.
      expect(
        (
          await postWebhook(svc.app, acme, 'stock-regularization', {
            productExternalCode: regCode,
            quantity: 'a few',
            movementTime: '2026-11-22T16:41:07+0100',
          })
        ).status,
      ).toBe(200);
      quarantinedReg = (
        await svc.deps.store.inbox.list({ connection: 'acme', kind: 'stock-regularization', limit: 1 })
      )[0]!.id;
      expect(
        (
          await postWebhook(svc.app, acme, 'reception-close', {
            ...fixture('reception-close'),
            closingDocumentCode: docCode,
            lines: [{ quantity: 4 }],
          })
        ).status,
      ).toBe(200);
      quarantinedDoc = (await eventOf('acme', `reception-close:${docCode}`)).id;
      const good = uniquePayload('shipping-order-close', 'ADM');
      expect((await postWebhook(svc.app, acme, 'shipping-order-close', good)).status).toBe(200);
      processedDoc = (await eventOf('acme', `shipping-order-close:${good.closingDocumentCode as string}`)).id;
      await status(processedDoc, 'processed');
      expect((await postWebhook(svc.app, acme, 'reception-close', { documentExternalCode: 'NO-CODE' })).status).toBe(
        400,
      );
      rejected = (await svc.deps.store.inbox.list({ connection: 'acme', status: 'rejected', limit: 1 }))[0]!.id;
      // Another connection's events, for the filters.
      for (let i = 0; i < 3; i++)
        expect(
          (
            await postWebhook(svc.app, beta, 'stock-regularization', {
              ...fixture('stock-regularization'),
              quantity: i + 1,
            })
          ).status,
        ).toBe(200);
    });
    afterAll(async () => {
      await svc.close();
    });

    describe('GET /admin/v1/events', () => {
      it('lists newest first with the total; filters by connection, kind, status and business code', async () => {
        const all = await page('');
        expect(all.total).toBe(7);
        expect(all.events.map((e) => e.id)).toEqual([...all.events.map((e) => e.id)].sort((a, b) => b - a));
        expect((await page('?connection=beta')).total).toBe(3);
        const quarantined = await page('?status=quarantined');
        expect(quarantined.events.map((e) => e.id).sort()).toEqual([quarantinedReg, quarantinedDoc].sort());
        expect(quarantined.events.find((e) => e.id === quarantinedReg)!.quarantineReason).toBe(
          'quantity: expected a number, got "a few"',
        );
        // The business code: a regularization's product, a close document's closingDocumentCode (even quarantined).
        expect((await page(`?code=${regCode}`)).events.map((e) => e.id)).toEqual([quarantinedReg]);
        expect((await page(`?code=${docCode}&kind=reception-close&connection=acme`)).events.map((e) => e.id)).toEqual([
          quarantinedDoc,
        ]);
        expect((await page(`?code=${docCode}&connection=beta`)).total).toBe(0);
      });

      it('pages with the cursor until nextCursor is null, each event once', async () => {
        const seen: number[] = [];
        let cursor: string | null = '';
        for (let i = 0; i < 10 && cursor !== null; i++) {
          const p: Page = await page(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
          expect(p.total).toBe(7);
          seen.push(...p.events.map((e) => e.id));
          cursor = p.nextCursor;
        }
        expect(cursor).toBeNull();
        expect(seen).toHaveLength(7);
        expect(new Set(seen).size).toBe(7);
      });

      it('filters by the time received (from inclusive, to exclusive)', async () => {
        const first = (await svc.deps.store.inbox.get(quarantinedReg))!;
        const at = first.receivedAt.toISOString();
        expect((await page(`?receivedTo=${encodeURIComponent(at)}`)).total).toBe(0);
        expect((await page(`?receivedFrom=${encodeURIComponent(at)}`)).total).toBe(7);
        expect(
          (await page(`?receivedFrom=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total,
        ).toBe(0);
      });

      it('400 naming the parameter for a bad status, kind, limit, cursor or time', async () => {
        for (const [query, name] of [
          ['status=lost', 'status'],
          ['kind=invoice', 'kind'],
          ['limit=0', 'limit'],
          ['limit=500', 'limit'],
          ['cursor=abc', 'cursor'],
          ['receivedFrom=yesterday', 'receivedFrom'],
        ]) {
          const res = await get(`/admin/v1/events?${query}`);
          expect(res.status, query).toBe(400);
          expect(((await res.json()) as { message: string }).message).toContain(name);
        }
      });

      it('401 without the admin token, and with an ERP token', async () => {
        expect((await get('/admin/v1/events', {})).status).toBe(401);
        expect((await get('/admin/v1/events', { authorization: `Bearer ${acme.erpApiToken}` })).status).toBe(401);
      });
    });

    describe('GET /admin/v1/events/{id}', () => {
      it('shows the raw body and its JSON, the attempts and the feed entries it produced', async () => {
        const res = await get(`/admin/v1/events/${processedDoc}`);
        expect(res.status).toBe(200);
        const detail = (await res.json()) as {
          event: Summary;
          payload: { raw: string; parsed: { closingDocumentCode: string } };
          correction: unknown;
          attempts: { outcome: string }[];
          feedEntries: { type: string }[];
        };
        expect(detail.event).toMatchObject({ id: processedDoc, status: 'processed', corrected: false });
        expect(detail.payload.parsed.closingDocumentCode).toBe(detail.event.businessCode);
        expect(JSON.parse(detail.payload.raw)).toEqual(detail.payload.parsed);
        expect(detail.correction).toBeNull();
        expect(detail.attempts.map((a) => a.outcome)).toEqual(['processed']);
        expect(detail.feedEntries.map((c) => c.type)).toEqual(['shipment.closed']);
      });

      it('a rejected event that is not JSON shows its raw text and parsed null', async () => {
        await postWebhook(svc.app, acme, 'stock-regularization', '{"quantity": ');
        const [bad] = await svc.deps.store.inbox.list({
          connection: 'acme',
          status: 'rejected',
          kind: 'stock-regularization',
          limit: 1,
        });
        const detail = (await (await get(`/admin/v1/events/${bad!.id}`)).json()) as {
          payload: { raw: string; parsed: unknown };
        };
        expect(detail.payload).toEqual({ raw: '{"quantity": ', parsed: null });
      });

      it('404 for an unknown id, 400 for one that is not an id, 401 without the token', async () => {
        expect((await get('/admin/v1/events/99999999')).status).toBe(404);
        expect((await get('/admin/v1/events/abc')).status).toBe(400);
        expect((await get(`/admin/v1/events/${processedDoc}`, {})).status).toBe(401);
      });
    });

    describe('PUT /admin/v1/events/{id}/payload', () => {
      it('a correction with problems answers 400 naming every field and stores nothing; a dry run stores nothing either', async () => {
        const res = await send('PUT', `/admin/v1/events/${quarantinedReg}/payload`, {
          productExternalCode: '',
          quantity: 'still not',
          movementTime: 'noon',
        });
        expect(res.status).toBe(400);
        const body = (await res.json()) as { error: string; details: { path: string }[] };
        expect(body.error).toBe('validation_failed');
        expect(body.details.map((d) => d.path)).toEqual(['productExternalCode', 'quantity', 'movementTime']);
        const ok = await send('PUT', `/admin/v1/events/${quarantinedReg}/payload?dryRun=true`, {
          productExternalCode: regCode,
          quantity: -3,
          movementTime: '2026-11-22T16:41:07+0100',
        });
        expect(ok.status).toBe(200);
        expect(await ok.json()).toMatchObject({
          stored: false,
          editId: null,
          canonical: { quantity: -3, movementTime: '2026-11-22T15:41:07.000Z' },
          changes: [{ path: 'quantity', before: 'a few', after: -3 }],
        });
        expect(await svc.deps.store.inbox.get(quarantinedReg)).toMatchObject({
          status: 'quarantined',
          correction: null,
        });
        expect(await svc.deps.store.inbox.editsOf(quarantinedReg)).toEqual([]);
      });

      it('stores the correction beside the original with the operator (and the X-Actor it acts for), and the event is processed from it', async () => {
        const original = (await svc.deps.store.inbox.get(quarantinedReg))!.payload;
        const res = await send(
          'PUT',
          `/admin/v1/events/${quarantinedReg}/payload`,
          { productExternalCode: regCode, quantity: -3, movementTime: '2026-11-22T16:41:07+0100' },
          { 'x-actor': 'ana@warehouse' },
        );
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          stored: true,
          event: { id: quarantinedReg, status: 'received', corrected: true },
          editId: expect.any(Number),
        });
        await status(quarantinedReg, 'processed');
        const detail = (await (await get(`/admin/v1/events/${quarantinedReg}`)).json()) as {
          payload: { raw: string };
          correction: { parsed: { quantity: number } };
          edits: { actor: string; changes: { path: string }[] }[];
          feedEntries: { data: { quantity: number; movementTime: string } }[];
        };
        expect(detail.payload.raw).toBe(original);
        expect(detail.correction.parsed.quantity).toBe(-3);
        expect(detail.edits).toEqual([
          expect.objectContaining({
            actor: 'admin (for ana@warehouse)',
            changes: [expect.objectContaining({ path: 'quantity' })],
          }),
        ]);
        expect(detail.feedEntries.map((c) => c.data)).toEqual([
          expect.objectContaining({ quantity: -3, movementTime: '2026-11-22T15:41:07.000Z' }),
        ]);
      });

      it('a close document keeps its closingDocumentCode; an insane X-Actor is recorded as admin', async () => {
        const payload = {
          ...fixture('reception-close'),
          closingDocumentCode: docCode,
          lines: [{ externalCode: 'YOG-NAT-125', quantity: 4 }],
        };
        const renamed = await send('PUT', `/admin/v1/events/${quarantinedDoc}/payload`, {
          ...payload,
          closingDocumentCode: 'OTHER',
        });
        expect(renamed.status).toBe(400);
        expect(((await renamed.json()) as { message: string }).message).toMatch(
          /^closingDocumentCode: identifies the event/,
        );
        const res = await send('PUT', `/admin/v1/events/${quarantinedDoc}/payload`, payload, {
          'x-actor': '<script>alert(1)</script>',
        });
        expect(res.status).toBe(200);
        expect((await svc.deps.store.inbox.editsOf(quarantinedDoc))[0]!.actor).toBe('admin');
        await status(quarantinedDoc, 'processed');
      });

      it('409 for a processed or rejected event, 404 for an unknown one; 400 for a body that is not JSON; 415 for another type; 401 without the token', async () => {
        const payload = fixture('shipping-order-close');
        expect((await send('PUT', `/admin/v1/events/${processedDoc}/payload`, payload)).status).toBe(409);
        expect((await send('PUT', `/admin/v1/events/${rejected}/payload`, payload)).status).toBe(409);
        expect((await send('PUT', '/admin/v1/events/99999999/payload', payload)).status).toBe(404);
        const malformed = await send('PUT', `/admin/v1/events/${quarantinedDoc}/payload`, '{"lines": [');
        expect(malformed.status).toBe(400);
        expect(await malformed.json()).toMatchObject({ error: 'malformed_json' });
        expect(
          (await send('PUT', `/admin/v1/events/${quarantinedDoc}/payload`, '{}', { 'content-type': 'text/plain' }))
            .status,
        ).toBe(415);
        expect(
          (await send('PUT', `/admin/v1/events/${quarantinedDoc}/payload`, payload, { authorization: 'Bearer nope' }))
            .status,
        ).toBe(401);
      });
    });

    describe('POST /admin/v1/events/{id}/retry and POST /admin/v1/events/retry', () => {
      it('retries one event (202, a new job); 409 for a rejected one, 404 for an unknown one, 401 without the token', async () => {
        // Jobs in every state, read in one call: two reads (created, then completed) counted twice a
        // job of an earlier test that completed in between (seen under a CPU hog: 6, then 6).
        const jobs = async () => Object.values(await svc.deps.queue.counts(INBOUND_QUEUE)).reduce((a, b) => a + b, 0);
        const before = await jobs();
        const res = await send('POST', `/admin/v1/events/${processedDoc}/retry`, '');
        expect(res.status).toBe(202);
        expect(await res.json()).toMatchObject({ event: { id: processedDoc, status: 'received' } });
        await status(processedDoc, 'processed');
        expect(await jobs()).toBeGreaterThan(before);
        expect(await svc.deps.store.feed.bySourceEvent(processedDoc)).toHaveLength(1);
        expect((await send('POST', `/admin/v1/events/${rejected}/retry`, '')).status).toBe(409);
        expect((await send('POST', '/admin/v1/events/99999999/retry', '')).status).toBe(404);
        expect((await send('POST', `/admin/v1/events/${processedDoc}/retry`, '', { authorization: '' })).status).toBe(
          401,
        );
      });

      it('bulk: a dry run counts the failed and quarantined events matching the filters; the real run retries them', async () => {
        const codes = [`BULK-A-${Date.now()}`, `BULK-B-${Date.now()}`];
        for (const productExternalCode of codes)
          await postWebhook(svc.app, beta, 'stock-regularization', {
            productExternalCode,
            quantity: 'n/a',
            movementTime: '2026-11-22T16:41:07Z',
          });
        const dry = await send('POST', '/admin/v1/events/retry', { connection: 'beta', dryRun: true });
        expect(dry.status).toBe(200);
        expect(await dry.json()).toEqual({ matched: 2, retried: 0, dryRun: true });
        expect((await page('?connection=beta&status=quarantined')).total).toBe(2);
        const run = await send('POST', '/admin/v1/events/retry', { connection: 'beta', kind: 'stock-regularization' });
        expect(run.status).toBe(202);
        expect(await run.json()).toEqual({ matched: 2, retried: 2, dryRun: false });
        // Read again, still without a quantity: quarantined again, with a processing attempt recorded.
        const events = await Promise.all(codes.map(async (code) => (await page(`?code=${code}`)).events[0]!));
        for (const e of events) {
          await status(e.id, 'quarantined');
          expect((await svc.deps.store.inbox.attemptsOf(e.id)).map((a) => a.outcome)).toEqual(['quarantined']);
        }
      });

      it('bulk: 400 for a status it does not retry or a bad filter, 415 without JSON, 401 without the token', async () => {
        const processed = await send('POST', '/admin/v1/events/retry', { status: 'processed' });
        expect(processed.status).toBe(400);
        expect(((await processed.json()) as { message: string }).message).toMatch(/^status: /);
        expect((await send('POST', '/admin/v1/events/retry', { kind: 'invoice' })).status).toBe(400);
        expect(
          (
            await send('POST', '/admin/v1/events/retry', 'dryRun=true', {
              'content-type': 'application/x-www-form-urlencoded',
            })
          ).status,
        ).toBe(415);
        expect(
          (
            await send(
              'POST',
              '/admin/v1/events/retry',
              { dryRun: true },
              { authorization: `Bearer ${beta.erpApiToken}` },
            )
          ).status,
        ).toBe(401);
      });
    });

    it('every route is in the OpenAPI document', async () => {
      const doc = (await (await svc.app.request('/openapi.json')).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      expect(Object.keys(doc.paths['/admin/v1/events']!)).toEqual(['get']);
      expect(Object.keys(doc.paths['/admin/v1/events/{id}']!)).toEqual(['get']);
      expect(Object.keys(doc.paths['/admin/v1/events/{id}/payload']!)).toEqual(['put']);
      expect(Object.keys(doc.paths['/admin/v1/events/{id}/retry']!)).toEqual(['post']);
      expect(Object.keys(doc.paths['/admin/v1/events/retry']!)).toEqual(['post']);
    });
  });
}
