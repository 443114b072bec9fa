import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore, type SqliteStore } from '../../../src/store/sqlite/store.js';
import { runMain, spawnCli } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';
import { until } from '../../support/wait.js';
import { newSecret } from './harness.js';
import { type Receiver, startReceiver } from './receiver.js';

// `wms-sync worker` pushes the feed when ERP_WEBHOOK_URL is set; `wms-sync deliveries …` shows
// and resends what it did, as an operator runs them.
describe('CLI: worker push, deliveries list|show|resend', () => {
  const tmp = tempDir('cli-deliveries');
  const secret = newSecret();
  let receiver: Receiver;
  let store: SqliteStore;
  let env: Record<string, string>;
  let deadId = 0;

  beforeAll(async () => {
    receiver = await startReceiver(secret, {
      answer: (_id, body) => ({
        status: (body.data as { code: string }).code === 'BAD' ? 422 : 200,
        body: '{"reason":"unknown order"}',
      }),
    });
    env = {
      SQLITE_FILE: join(tmp.dir, 'wms-sync.db'),
      WMS_BASE_URL: 'http://127.0.0.1:9',
      WMS_CLIENT_ID: 'c',
      WMS_CLIENT_SECRET: 's',
      WEBHOOK_USERNAME: 'wms',
      WEBHOOK_PASSWORD: randomBytes(12).toString('hex'),
      ERP_API_TOKEN: randomBytes(16).toString('hex'),
      CONNECTION_NAME: 'acme',
      ERP_WEBHOOK_URL: receiver.url,
      ERP_WEBHOOK_SECRET: secret,
      ERP_WEBHOOK_POLL_MS: '50',
      RECONCILE_CRON: 'off',
      PRUNE_CRON: 'off',
    };
    store = createSqliteStore({ file: env.SQLITE_FILE! });
    await store.migrate();
    const at = new Date();
    await store.feed.append({
      connection: 'acme',
      type: 'reception.closed',
      dedupeKey: 'a',
      data: { code: 'OK' },
      at,
    });
    await store.feed.append({
      connection: 'acme',
      type: 'reception.closed',
      dedupeKey: 'b',
      data: { code: 'BAD' },
      at,
    });
  });
  afterAll(async () => {
    await store.close();
    await receiver.close();
    tmp.remove();
  });

  it('the worker delivers the feed written by another process; a refused event is dead', async () => {
    const worker = spawnCli(['worker'], env);
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    await receiver.received(1);
    await until(async () => (await store.erpDeliveries.count({ status: 'dead' })) === 1, { timeoutMs: 20_000 });
    worker.kill('SIGTERM');
    await exited;
    expect(receiver.receipts.map((r) => (r.body.data as { code: string }).code)).toEqual(['OK']);
    expect(receiver.badSignatures).toBe(0);
    deadId = (await store.erpDeliveries.list({ status: 'dead', limit: 1 }))[0]!.id;
  });

  it('deliveries list, show and resend', async () => {
    const list = await runMain(['deliveries', 'list', '--status', 'dead'], env);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(new RegExp(`^\\s*${deadId}\\s+acme\\s+reception.closed\\s+dead\\s+1\\s+422`, 'm'));
    expect(list.out).toContain('1 of 1');
    const json = await runMain(['deliveries', 'list', '--json'], env);
    expect(
      json.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).status)
        .sort(),
    ).toEqual(['dead', 'delivered']);
    const show = await runMain(['deliveries', 'show', String(deadId)], env);
    expect(show.code).toBe(0);
    expect(show.out).toContain('"code": "BAD"');
    expect(show.out).toMatch(/dead\s+422/);
    expect(show.out).toContain('{"reason":"unknown order"}');
    const dry = await runMain(['deliveries', 'resend', '--dead', '--dry-run'], env);
    expect(dry.out).toContain('1 dead deliveries match (dry run');
    const resend = await runMain(['deliveries', 'resend', String(deadId)], env);
    expect(resend.code).toBe(0);
    expect(resend.out).toContain(`delivery ${deadId}: pending again (evt_acme_`);
    expect((await store.erpDeliveries.get(deadId))!.status).toBe('pending');
    const again = await runMain(['deliveries', 'resend', String(deadId), '99999'], env);
    expect(again.code).toBe(1);
    expect(again.err).toContain('pending: it is on its way already');
    expect(again.err).toContain('delivery 99999: no such delivery');
  });

  it('usage errors exit 2 with the help', async () => {
    for (const argv of [
      ['deliveries'],
      ['deliveries', 'list', '--status', 'lost'],
      ['deliveries', 'show', 'abc'],
      ['deliveries', 'resend'],
      ['deliveries', 'resend', '--type', 'x'],
    ]) {
      const r = await runMain(argv, env);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain('Usage: wms-sync deliveries');
    }
  });
});
