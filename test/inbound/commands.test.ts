import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindOfFile } from '../../src/commands/replay.js';
import { type Listening, listen } from '../../src/lib/listen.js';
import { runMain } from '../support/cli.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';
import { WEBHOOK_KINDS } from './support.js';

const fixtures = WEBHOOK_KINDS.map((k) => fileURLToPath(new URL(`../../fixtures/webhooks/${k}.json`, import.meta.url)));

describe('wms-sync replay and wms-sync events, against a running service', () => {
  const tmp = tempDir('wh-commands');
  const sqliteFile = `${tmp.dir}/wms-sync.db`;
  const acme = testConnection('acme', {
    webhookUsername: 'wms-acme',
    webhookPassword: 'replay-password-1',
    erpApiToken: 'erp-token-for-replay-tests',
  });
  const env = {
    SQLITE_FILE: sqliteFile,
    LOG_LEVEL: 'silent',
    CONNECTION_NAME: 'acme',
    WMS_BASE_URL: 'http://127.0.0.1:9',
    WMS_CLIENT_ID: 'client-acme',
    WMS_CLIENT_SECRET: 'secret',
    WEBHOOK_USERNAME: 'wms-acme',
    WEBHOOK_PASSWORD: 'replay-password-1',
    ERP_API_TOKEN: 'erp-token-for-replay-tests',
  };
  let svc: TestService;
  let http: Listening;

  const run = (...argv: string[]) => runMain(argv, env);
  const processedCount = async () => (await svc.deps.store.inbox.countByStatus()).processed;

  beforeAll(async () => {
    svc = await startTestService({
      label: 'wh-commands',
      connections: [acme],
      env: { SQLITE_FILE: sqliteFile, QUEUE_POLL_INTERVAL_MS: '50' },
      worker: true,
    });
    http = await listen(svc.app.fetch, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await http.close(0);
    await svc.close();
    tmp.remove();
  });

  it('replay posts each fixture with the connection’s Basic credentials; the service stores and processes them', async () => {
    const { code, out } = await run('replay', ...fixtures, '--to', http.url);
    expect(code).toBe(0);
    for (const k of WEBHOOK_KINDS) expect(out).toContain(`${k}.json → ${k}: 200 {"success":true}`);
    await until(async () => (await processedCount()) === 5);
    const feed = (await (
      await svc.app.request('/erp/v1/feed', { headers: { authorization: `Bearer ${acme.erpApiToken}` } })
    ).json()) as { entries: { type: string }[] };
    expect(feed.entries.map((e) => e.type).sort()).toEqual([
      'client_return.closed',
      'reception.closed',
      'shipment.closed',
      'stock.adjusted',
      'supplier_return.closed',
    ]);
  });

  it('replaying the same files again is acknowledged as duplicates and processes nothing more', async () => {
    const { code, out } = await run('replay', ...fixtures, '--to', `${http.url}/`, '--connection', 'acme');
    expect(code).toBe(0);
    expect(out.match(/Already received/g)).toHaveLength(5);
    expect((await svc.deps.store.inbox.findByKey('acme', 'reception-close:REC-2026-004512'))?.duplicates).toBe(1);
  });

  it('a refused payload makes the exit code 1 and shows the receiver’s message; --kind overrides the file name', async () => {
    const broken = `${tmp.dir}/broken.json`;
    writeFileSync(broken, '{"closingDocumentCode":"","documentType":"PURCHASE_ORDER","lines":[]}');
    const { code, out } = await run('replay', broken, '--to', http.url, '--kind', 'reception-close');
    expect(code).toBe(1);
    expect(out).toMatch(/400 .*closingDocumentCode/);
  });

  it('usage errors exit 2: no kind from the file name, no --to, unknown connection, unknown kind', async () => {
    const other = `${tmp.dir}/payload.json`;
    writeFileSync(other, '{}');
    expect((await run('replay', other, '--to', http.url)).err).toMatch(/cannot tell the webhook kind/);
    expect((await run('replay', fixtures[0]!)).code).toBe(2);
    expect((await run('replay', fixtures[0]!, '--to', http.url, '--connection', 'nobody')).err).toMatch(
      /no connection named "nobody"/,
    );
    expect((await run('replay', fixtures[0]!, '--to', http.url, '--kind', 'invoice')).code).toBe(2);
    expect(kindOfFile('/x/supplier-return-close-lots.json')).toBe('supplier-return-close');
  });

  it('an unreachable receiver exits 1 and says so', async () => {
    const { code, err } = await run('replay', fixtures[0]!, '--to', 'http://127.0.0.1:9');
    expect(code).toBe(1);
    expect(err).toMatch(/unreachable/);
  });

  it('events list shows events newest first with filters, as a table or JSON lines', async () => {
    const table = await run('events', 'list', '--limit', '3');
    expect(table.code).toBe(0);
    expect(table.out.split('\n').filter(Boolean)).toHaveLength(4);
    const rejected = await run('events', 'list', '--status', 'rejected', '--json');
    const rows = rejected.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; payload: string });
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.every((r) => r.status === 'rejected')).toBe(true);
    expect((await run('events', 'list', '--status', 'lost')).code).toBe(2);
  });

  it('events export writes the matching events as JSON Lines, oldest first, to a file or standard output', async () => {
    const file = `${tmp.dir}/receptions.jsonl`;
    const { code, err } = await run('events', 'export', '--kind', 'reception-close', '--out', file);
    expect(code).toBe(0);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(err).toBe(`exported ${lines.length} event${lines.length === 1 ? '' : 's'} to ${file}\n`);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(new Set(lines.map((l) => l.kind))).toEqual(new Set(['reception-close']));
    const event = (await svc.deps.store.inbox.findByKey('acme', 'reception-close:REC-2026-004512'))!;
    expect(lines).toContainEqual({
      connection: 'acme',
      kind: 'reception-close',
      receivedAt: event.receivedAt.toISOString(),
      body: event.payload,
      id: event.id,
    });
    const all = await run('events', 'export', '--since', '2000-01-01', '--until', '2999-01-01');
    expect(all.out.trim().split('\n').length).toBe(await svc.deps.store.inbox.count({}));
    expect((await run('events', 'export', '--until', '2000-01-01')).out).toBe('');
    expect((await run('events', 'export', '--since', 'yesterday')).code).toBe(2);
    expect((await run('events', 'export', '--kind', 'invoice')).code).toBe(2);
    const again = await run('events', 'export', '--out', file);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already exists|EEXIST/);
  });

  it('events show prints the event and its raw body as received', async () => {
    const event = (await svc.deps.store.inbox.findByKey('acme', 'reception-close:REC-2026-004512'))!;
    const { code, out } = await run('events', 'show', String(event.id));
    expect(code).toBe(0);
    expect(out).toContain('"status": "processed"');
    expect(out).toContain(event.payload);
    expect((await run('events', 'show', '99999999')).code).toBe(1);
  });

  it('events retry and replay --event run a stored event’s processing again, without a second feed entry', async () => {
    const event = (await svc.deps.store.inbox.findByKey('acme', 'reception-close:REC-2026-004512'))!;
    const retried = await run('events', 'retry', String(event.id));
    expect(retried).toMatchObject({
      code: 0,
      out: expect.stringContaining(`event ${event.id}: queued for processing again`),
    });
    await until(
      async () =>
        (await svc.deps.store.inbox.get(event.id))?.attempts === 2 &&
        (await svc.deps.store.inbox.get(event.id))?.status === 'processed',
    );
    expect((await run('replay', '--event', String(event.id))).code).toBe(0);
    await until(
      async () =>
        (await svc.deps.store.inbox.get(event.id))?.attempts === 3 &&
        (await svc.deps.store.inbox.get(event.id))?.status === 'processed',
    );
    expect(
      (await svc.deps.store.feed.listAfter('acme', 0, 100)).filter((c) => c.sourceEventId === event.id),
    ).toHaveLength(1);
  });

  it('events retry refuses rejected and unknown events (exit 1) and bad ids (exit 2)', async () => {
    const [rejected] = await svc.deps.store.inbox.list({ connection: 'acme', status: 'rejected', limit: 1 });
    const r = await run('events', 'retry', String(rejected!.id), '424242');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cannot be retried/);
    expect(r.err).toMatch(/424242: no such event/);
    expect((await run('events', 'retry', 'abc')).code).toBe(2);
    expect((await run('events')).code).toBe(2);
  });

  describe('quarantine and repair from the command line', () => {
    const quarantine = async (body: Record<string, unknown>) => {
      const res = await fetch(`${http.url}/webhooks/acme/stock-regularization`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('wms-acme:replay-password-1').toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      const [event] = await svc.deps.store.inbox.list({ connection: 'acme', kind: 'stock-regularization', limit: 1 });
      expect(event!.status).toBe('quarantined');
      return event!;
    };

    it('events list --status quarantined shows the reason; events edit --set with typed values repairs it; show prints both payloads and who changed what', async () => {
      const event = await quarantine({
        productExternalCode: 'CLI-OIL',
        quantity: 'twelve',
        movementTime: '2026-11-22T16:41:07+01:00',
        lotCode: 'L1',
      });
      const listed = await run('events', 'list', '--status', 'quarantined');
      expect(listed.out).toContain(String(event.id));
      expect(listed.out).toContain('quantity: expected a number, got "twelve"');
      const problems = await run('events', 'edit', String(event.id), '--set', 'quantity=twelve');
      expect(problems.code).toBe(1);
      expect(problems.err).toContain('quantity: expected a number, got "twelve"');
      const dry = await run('events', 'edit', String(event.id), '--set', 'quantity=-12', '--dry-run');
      expect(dry).toMatchObject({ code: 0, out: expect.stringContaining('dry run') });
      expect((await svc.deps.store.inbox.get(event.id))!.correction).toBeNull();
      const edited = await run(
        'events',
        'edit',
        String(event.id),
        '--set',
        'quantity=-12',
        '--set',
        'lotCode=null',
        '--set',
        'warehouse="07"',
        '--actor',
        'ana',
      );
      expect(edited.code, edited.err).toBe(0);
      expect(edited.out).toContain('quantity: "twelve" → -12');
      expect(edited.out).toContain('lotCode: "L1" → null');
      expect(edited.out).toContain('warehouse: (absent) → "07"');
      await until(async () => (await svc.deps.store.inbox.get(event.id))?.status === 'processed');
      const [feedEntry] = await svc.deps.store.feed.bySourceEvent(event.id);
      expect(feedEntry!.data).toMatchObject({ quantity: -12, lotCode: null, warehouse: '07' });
      const shown = await run('events', 'show', String(event.id));
      expect(shown.out).toContain(`--- raw body as received ---\n${event.payload}`);
      expect(shown.out).toContain('--- correction (what processing uses) ---');
      expect(shown.out).toMatch(/#\d+ \S+ by ana\n {4}quantity: "twelve" → -12/);
      expect(shown.out).toContain('processed');
      expect(shown.out).toContain('stock.adjusted');
    });

    it('events edit --file and $EDITOR; a processed event cannot be edited; bad ids and paths are usage errors', async () => {
      const byFile = await quarantine({ productExternalCode: 'CLI-SALT', movementTime: '2026-11-22T16:41:07Z' });
      const file = `${tmp.dir}/corrected.json`;
      writeFileSync(
        file,
        JSON.stringify({ productExternalCode: 'CLI-SALT', quantity: 5, movementTime: '2026-11-22T16:41:07Z' }),
      );
      expect((await run('events', 'edit', String(byFile.id), '--file', file)).code).toBe(0);
      await until(async () => (await svc.deps.store.inbox.get(byFile.id))?.status === 'processed');
      expect((await run('events', 'edit', String(byFile.id), '--set', 'quantity=6')).err).toMatch(
        /is processed: only quarantined and failed/,
      );

      const byEditor = await quarantine({ productExternalCode: 'CLI-RICE', quantity: 2 });
      const script = `${tmp.dir}/editor.mjs`;
      writeFileSync(
        script,
        "import { readFileSync, writeFileSync } from 'node:fs'; const f = process.argv[2]; const p = JSON.parse(readFileSync(f, 'utf8')); p.movementTime = '2026-11-22T10:00+01'; writeFileSync(f, JSON.stringify(p));",
      );
      const edited = await runMain(['events', 'edit', String(byEditor.id)], {
        ...env,
        EDITOR: `${process.execPath} ${script}`,
      });
      expect(edited.code, edited.err).toBe(0);
      await until(async () => (await svc.deps.store.inbox.get(byEditor.id))?.status === 'processed');
      expect((await svc.deps.store.feed.bySourceEvent(byEditor.id))[0]!.data.movementTime).toBe(
        '2026-11-22T09:00:00.000Z',
      );

      expect((await run('events', 'edit', 'abc', '--set', 'a=1')).code).toBe(2);
      expect((await run('events', 'edit', String(byEditor.id), '--set', 'lines[x]=1')).code).toBe(2);
      expect((await run('events', 'edit', String(byEditor.id))).err).toMatch(/give --set or --file, or set \$EDITOR/);
      expect((await run('events', 'edit', '99999999', '--set', 'a=1')).err).toMatch(/no such event/);
    });
  });
});
