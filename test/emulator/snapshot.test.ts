import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { tempDir } from '../support/tmp.js';
import { gate, type Receiver, startReceiver } from './receiver.js';
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
  it('writes the whole state to a named snapshot and brings it back, in the same emulator or another', async () => {
    const env = await warehouseTenant({ dataDir: dir.dir });
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 7 });
    const written = await ok<{ name: string; bytes: number }>(env.app, 'POST', '/snapshot', { name: 'state' });
    expect(written).toEqual({ name: 'state', bytes: expect.any(Number) });

    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 5 });
    await ok(env.app, 'POST', '/tenants', { id: 'later' });
    expect(await ok(env.app, 'POST', '/restore', { name: 'state' })).toEqual({ name: 'state', tenants: ['acme'] });
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 7 }]);
    // the full-text index follows the restored products (selective `contains` goes through it)
    const search = await call<unknown[]>(env.app, 'GET', `${API}/product?description.contains=Serialised`, {
      token: env.token,
    });
    expect(search.body).toHaveLength(1);

    // another emulator, with its own generated signing key: after the restore, the first one's tokens work
    const other = setup({ clock: new ManualClock(new Date('2025-03-01T12:00:00Z')), dataDir: dir.dir });
    expect(
      (await call(other.app, 'POST', `${API}/product/stock`, { token: env.token, json: { product: 'P1' } })).status,
    ).toBe(401);
    other.emulator.state.restore('state');
    expect((await stock(other.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 7 }]);
    // numbering carries on from the snapshot
    await createDocument(other.app, env.token, { externalCode: 'PO-9', documentType: 'PURCHASE_ORDER' });
    expect(
      (await ok<{ receptionCode: string }>(other.app, 'POST', `${T}/receptions`, { documents: ['PO-9'] }))
        .receptionCode,
    ).toBe('REC2025-1');
  });

  it('webhooks pending in the snapshot are sent after a restore, with their closingDocumentCode', async () => {
    const env = await warehouseTenant({ dataDir: dir.dir });
    const held = gate();
    const slow = await startReceiver(async () => (await held.promise, { status: 200 }));
    receivers.push(slow);
    await ok(env.app, 'PUT', `${T}/webhooks`, { receptionCloseUrl: `${slow.url}/rc` });
    await createDocument(env.app, env.token, { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' });
    const { receptionCode } = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, {
      documents: ['PO-1'],
    });
    const closed = await ok<{ closingDocuments: { closingDocumentCode: string }[] }>(
      env.app,
      'POST',
      `${T}/receptions/${receptionCode}/close`,
    );
    await ok(env.app, 'POST', '/snapshot', { name: 'pending' });
    held.open();
    await env.emulator.state.webhooks.settled('acme');

    const fresh = setup({ dataDir: dir.dir });
    fresh.emulator.state.restore('pending');
    await fresh.emulator.state.webhooks.settled('acme');
    expect(slow.received.map((r) => (r.body as { closingDocumentCode: string }).closingDocumentCode)).toEqual([
      closed.closingDocuments[0]!.closingDocumentCode,
      closed.closingDocuments[0]!.closingDocumentCode,
    ]);
    expect((await ok<{ status: string }>(fresh.app, 'GET', `${T}/receptions/${receptionCode}`)).status).toBe('CLOSED');
  });

  it('a webhook still pending when the emulator stops is sent when it starts again on the same data file', async () => {
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
    expect((await ok<{ status: string }[]>(second.app, 'GET', `${T}/webhook-log`)).map((d) => d.status)).toEqual([
      'succeeded',
    ]);
    second.emulator.close();
  });

  it("400 for a missing snapshot, one that is not SQLite or not the emulator's, or a bad body; the state is left as it was", async () => {
    const env = await warehouseTenant({ dataDir: dir.dir });
    const folder = join(dir.dir, 'snapshots');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'text.snapshot'),
      'hello, this is not SQLite at all, just some text long enough to fill a header',
    );
    const db = new Database(join(folder, 'other.snapshot'));
    db.exec('CREATE TABLE things (a TEXT)');
    db.close();
    const cases: [unknown, string, string | undefined][] = [
      [{ name: 'none' }, 'snapshot_unreadable', 'No snapshot named "none"'],
      [{ name: 'text' }, 'snapshot_unreadable', 'Snapshot "text" cannot be read'],
      [{ name: 'other' }, 'snapshot_incompatible', 'Snapshot "other" is not an emulator snapshot'],
      [{}, 'invalid_request', undefined],
    ];
    for (const [body, error, message] of cases) {
      const res = await control<{ error: string; message: string }>(env.app, 'POST', '/restore', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error, ...(message ? { message } : {}) });
      // never a path, never what the driver said about a file
      expect(res.body.message).not.toContain(dir.dir);
    }
    expect((await control(env.app, 'GET', '/tenants/acme')).status).toBe(200);
  });
});

describe('snapshots stay in their folder', () => {
  it('names are plain: a path, a dot file or a name with an extension is refused (400) and nothing is written', async () => {
    const env = setup({ dataDir: dir.dir });
    const outside = join(dir.dir, 'notes.txt');
    writeFileSync(outside, 'keep me');
    for (const name of ['../notes', 'notes.txt', '/etc/passwd', 'a/b', '.hidden', '', 'x'.repeat(65), '..']) {
      for (const route of ['/snapshot', '/restore']) {
        const res = await control<{ error: string; message: string }>(env.app, 'POST', route, { name });
        expect(res.status, `${route} ${name}`).toBe(400);
        expect(res.body.error).toBe('invalid_request');
      }
    }
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(await control(env.app, 'POST', '/snapshot', { file: outside })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
  });

  it('a snapshot is written 0600 in a 0700 folder under the data directory, never through a planted link', async () => {
    const data = tempDir('snapshot-modes');
    try {
      const env = setup({ dataDir: data.dir });
      const victim = join(data.dir, 'victim.txt');
      writeFileSync(victim, 'untouched');
      mkdirSync(join(data.dir, 'snapshots'), { recursive: true, mode: 0o700 });
      symlinkSync(victim, join(data.dir, 'snapshots', 'trap.snapshot.partial'));
      expect((await control(env.app, 'POST', '/snapshot', { name: 'trap' })).status).toBe(200);
      const file = join(data.dir, 'snapshots', 'trap.snapshot');
      expect(lstatSync(file).isFile()).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(data.dir, 'snapshots')).mode & 0o777).toBe(0o700);
      expect(readFileSync(victim, 'utf8')).toBe('untouched');

      // restore does not follow a link either, and says nothing about its target
      symlinkSync(victim, join(data.dir, 'snapshots', 'link.snapshot'));
      expect(await control(env.app, 'POST', '/restore', { name: 'link' })).toMatchObject({
        status: 400,
        body: { error: 'snapshot_unreadable', message: 'No snapshot named "link"' },
      });
    } finally {
      data.remove();
    }
  });

  it('without a data directory snapshots are unavailable (400), and nothing is written', async () => {
    const env = setup();
    expect(await control(env.app, 'POST', '/snapshot', { name: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'snapshots_unavailable' },
    });
    expect(existsSync(join(process.cwd(), 'snapshots'))).toBe(false);
  });
});

describe('resets and warehouse data', () => {
  it('a tenant reset clears stock, operations and the webhook log, keeps warehouses and webhook settings; codes are not reused', async () => {
    const env = await warehouseTenant();
    await ok(env.app, 'POST', `${T}/warehouses`, { code: 'W2' });
    await ok(env.app, 'PUT', `${T}/webhooks`, { stockRegularizationUrl: 'http://127.0.0.1:9/never', timeoutMs: 50 });
    await createDocument(env.app, env.token, { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' });
    const first = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, { documents: ['PO-1'] });
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 1 });
    await env.emulator.state.webhooks.settled('acme');
    expect((await control(env.app, 'POST', `${T}/reset`)).status).toBe(204);
    expect(await ok(env.app, 'GET', `${T}/webhook-log`)).toEqual([]);
    expect((await ok<{ code: string }[]>(env.app, 'GET', `${T}/warehouses`)).map((w) => w.code)).toEqual([
      'MAIN',
      'W2',
    ]);
    expect(await ok(env.app, 'GET', `${T}/webhooks`)).toMatchObject({
      stockRegularizationUrl: 'http://127.0.0.1:9/never',
    });
    expect((await control(env.app, 'GET', `${T}/receptions/${first.receptionCode}`)).status).toBe(404);
    await call(env.app, 'POST', `${API}/product`, {
      token: env.token,
      json: { externalCode: 'P1', description: 'again' },
    });
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 0 }]);
    await createDocument(env.app, env.token, { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' });
    const second = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, { documents: ['PO-1'] });
    expect(second.receptionCode).not.toBe(first.receptionCode);
  });
});
