import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { tempDir } from '../support/tmp.js';
import { gate, startReceiver, type Receiver } from './receiver.js';
import { API, call, control, setup } from './support.js';
import { createDocument, ok, stock, warehouseTenant } from './warehouse-support.js';

const dir = tempDir('emulator-snapshot');
afterAll(() => dir.remove());
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

const T = '/tenants/acme';

describe('POST /_emulator/snapshot and /_emulator/restore', () => {
  it('writes the whole state to a file and brings it back, in the same emulator or another', async () => {
    const env = await warehouseTenant();
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 7 });
    const file = `${dir.dir}/nested/state.db`;
    const written = await ok<{ file: string; bytes: number }>(env.app, 'POST', '/snapshot', { file });
    expect(written).toEqual({ file, bytes: expect.any(Number) });

    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 5 });
    await ok(env.app, 'POST', '/tenants', { id: 'later' });
    expect(await ok(env.app, 'POST', '/restore', { file })).toEqual({ file, tenants: ['acme'] });
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 7 }]);
    // the full-text index follows the restored products (selective `contains` goes through it)
    const search = await call<unknown[]>(env.app, 'GET', `${API}/product?description.contains=Serialised`, { token: env.token });
    expect(search.body).toHaveLength(1);

    // another emulator, with its own generated signing key: after the restore, the first one's tokens work
    const other = setup({ clock: new ManualClock(new Date('2025-03-01T12:00:00Z')) });
    expect((await call(other.app, 'POST', `${API}/product/stock`, { token: env.token, json: { product: 'P1' } })).status).toBe(401);
    other.emulator.state.restore(file);
    expect((await stock(other.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 7 }]);
    // numbering carries on from the snapshot
    await createDocument(other.app, env.token, { externalCode: 'PO-9', documentType: 'PURCHASE_ORDER' });
    expect((await ok<{ receptionCode: string }>(other.app, 'POST', `${T}/receptions`, { documents: ['PO-9'] })).receptionCode).toBe('REC2025-1');
  });

  it('deliveries pending in the snapshot are sent after a restore, with their closingDocumentCode', async () => {
    const env = await warehouseTenant();
    const held = gate();
    const slow = await startReceiver(async () => (await held.promise, { status: 200 }));
    receivers.push(slow);
    await ok(env.app, 'PUT', `${T}/webhooks`, { receptionCloseUrl: `${slow.url}/rc` });
    await createDocument(env.app, env.token, { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' });
    const { receptionCode } = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, { documents: ['PO-1'] });
    const closed = await ok<{ closingDocuments: { closingDocumentCode: string }[] }>(env.app, 'POST', `${T}/receptions/${receptionCode}/close`);
    const file = `${dir.dir}/pending.db`;
    await ok(env.app, 'POST', '/snapshot', { file });
    held.open();
    await env.emulator.state.webhooks.settled('acme');

    const fresh = setup();
    fresh.emulator.state.restore(file);
    await fresh.emulator.state.webhooks.settled('acme');
    expect(slow.received.map((r) => (r.body as { closingDocumentCode: string }).closingDocumentCode)).toEqual([
      closed.closingDocuments[0]!.closingDocumentCode,
      closed.closingDocuments[0]!.closingDocumentCode,
    ]);
    expect((await ok<{ status: string }>(fresh.app, 'GET', `${T}/receptions/${receptionCode}`)).status).toBe('CLOSED');
  });

  it('a delivery still pending when the emulator stops is sent when it starts again on the same data file', async () => {
    const dataFile = `${dir.dir}/restart.db`;
    const first = await warehouseTenant({ dataFile });
    let answered = 0;
    // the first request never gets an answer (the emulator stops meanwhile); later ones do
    const receiver = await startReceiver(() => (answered++ === 0 ? 'hang' : { status: 200 }));
    receivers.push(receiver);
    await ok(first.app, 'PUT', `${T}/webhooks`, { stockRegularizationUrl: `${receiver.url}/stock` });
    const inFlight = new Promise((resolve) => receiver.events.once('request', resolve));
    await ok(first.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 2 });
    await inFlight;
    first.emulator.close();
    const second = setup({ dataFile });
    await second.emulator.state.webhooks.settled('acme');
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.text).toBe(receiver.received[0]!.text);
    expect((await ok<{ status: string }[]>(second.app, 'GET', `${T}/webhook-deliveries`)).map((d) => d.status)).toEqual(['succeeded']);
    second.emulator.close();
  });

  it('400 for a missing file, a file that is not a snapshot, or a bad body; the state is left as it was', async () => {
    const env = await warehouseTenant();
    const notSqlite = `${dir.dir}/text.db`;
    writeFileSync(notSqlite, 'hello, this is not SQLite at all, just some text long enough to fill a header');
    const otherSqlite = `${dir.dir}/other.db`;
    const db = new Database(otherSqlite);
    db.exec('CREATE TABLE things (a TEXT)');
    db.close();
    const cases: [unknown, string][] = [
      [{ file: `${dir.dir}/none.db` }, 'snapshot_unreadable'],
      [{ file: notSqlite }, 'snapshot_unreadable'],
      [{ file: otherSqlite }, 'snapshot_incompatible'],
      [{}, 'invalid_request'],
    ];
    for (const [body, error] of cases) {
      const res = await control(env.app, 'POST', '/restore', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error });
    }
    expect((await control(env.app, 'GET', '/tenants/acme')).status).toBe(200);
  });
});

describe('resets and warehouse data', () => {
  it('a tenant reset clears stock, operations and the delivery log, keeps warehouses and webhook settings; codes are not reused', async () => {
    const env = await warehouseTenant();
    await ok(env.app, 'POST', `${T}/warehouses`, { code: 'W2' });
    await ok(env.app, 'PUT', `${T}/webhooks`, { stockRegularizationUrl: 'http://127.0.0.1:9/never', timeoutMs: 50 });
    await createDocument(env.app, env.token, { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' });
    const first = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, { documents: ['PO-1'] });
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 1 });
    await env.emulator.state.webhooks.settled('acme');
    expect((await control(env.app, 'POST', `${T}/reset`)).status).toBe(204);
    expect(await ok(env.app, 'GET', `${T}/webhook-deliveries`)).toEqual([]);
    expect((await ok<{ code: string }[]>(env.app, 'GET', `${T}/warehouses`)).map((w) => w.code)).toEqual(['MAIN', 'W2']);
    expect(await ok(env.app, 'GET', `${T}/webhooks`)).toMatchObject({ stockRegularizationUrl: 'http://127.0.0.1:9/never' });
    expect((await control(env.app, 'GET', `${T}/receptions/${first.receptionCode}`)).status).toBe(404);
    await call(env.app, 'POST', `${API}/product`, { token: env.token, json: { externalCode: 'P1', description: 'again' } });
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 0 }]);
    await createDocument(env.app, env.token, { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' });
    const second = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, { documents: ['PO-1'] });
    expect(second.receptionCode).not.toBe(first.receptionCode);
  });
});
