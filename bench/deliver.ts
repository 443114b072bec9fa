// npm run bench:deliver [-- --quick] [--events 10000] [--rate 500] [--seconds 20] [--outage 30]
//
// Pushing the feed to the ERP, with `wms-sync serve` as shipped (a child process on
// SQLite) and the ERP endpoint in a process of its own that verifies every signature:
//   1. throughput: `--events` feed events already in the store, delivered signed; baseline: the
//      same bodies as plain unsigned POSTs from one loop (same concurrency, same receiver);
//   2. latency: reception-close webhooks at `--rate`/s into serve; from the WMS's 200 to the ERP's
//      receipt; baseline: an ERP polling GET /erp/v1/feed once a second, same run;
//   3. outage: the same load, the ERP answering 503 for `--outage` s, then back: every event
//      exactly once per webhook-id, all within 60 s of recovery, and what reached the dead endpoint.
// Prints the tables and writes bench/results/deliver.json (tables + chart).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { toErpFeedEntry } from '../src/erp/feed/read.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import { tempDir } from '../test/support/tmp.js';
import { epochMs, feedPoller, paced, percentile, request, script } from './deliver-lib.js';
import { type Child, startChild } from './lib/child.js';
import { pooled, printTable, type Row, writeResults } from './lib/report.js';

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    events: { type: 'string' },
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string' },
    outage: { type: 'string' },
  },
});
const QUICK = opts.quick;
const EVENTS = Number(opts.events ?? (QUICK ? 2000 : 10_000));
const RATE = Number(opts.rate);
const SECONDS = Number(opts.seconds ?? (QUICK ? 4 : 20));
const OUTAGE = Number(opts.outage ?? (QUICK ? 6 : 30));
const AROUND = QUICK ? 2 : 5;

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const ERP_TOKEN = 'bench-erp-token-0123456789';
const AUTH = `Basic ${Buffer.from('wms-bench:bench-password').toString('base64')}`;
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/webhooks/reception-close.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;
const webhookBody = (code: string) =>
  JSON.stringify({ ...fixture, closingDocumentCode: code, documentExternalCode: code });

const tmp = tempDir('bench-deliver');
const receiver = await startChild(['--import', 'tsx', script('./deliver-receiver.ts')], { SECRET });
const stats = async () =>
  JSON.parse((await request(`${receiver.url}/stats`, 'GET', undefined)).text) as {
    unique: number;
    duplicates: number;
    badSignatures: number;
    downHits: number;
    downHitTimes: number[];
    plain: number;
    firstReceipt: number;
    lastReceipt: number;
  };
const control = (c: { down?: boolean; reset?: boolean }) =>
  request(`${receiver.url}/control`, 'POST', JSON.stringify(c));
async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

function serve(file: string): Promise<Child> {
  return startChild([script('../bin/wms-sync.js'), 'serve'], {
    PORT: '0',
    SQLITE_FILE: file,
    LOG_LEVEL: 'info',
    CONNECTION_NAME: 'bench',
    WMS_BASE_URL: 'http://127.0.0.1:9',
    WMS_CLIENT_ID: 'bench',
    WMS_CLIENT_SECRET: 'bench-secret',
    WEBHOOK_USERNAME: 'wms-bench',
    WEBHOOK_PASSWORD: 'bench-password',
    ERP_API_TOKEN: ERP_TOKEN,
    ERP_WEBHOOK_URL: `${receiver.url}/signed`,
    ERP_WEBHOOK_SECRET: SECRET,
    RECONCILE_CRON: 'off',
    PRUNE_CRON: 'off',
  });
}

const tables: { title: string; rows: Row[] }[] = [];
const chart: { label: string; ours: number; baseline: number; unit: string }[] = [];
const show = (title: string, rows: Row[]) => (printTable(title, rows), tables.push({ title, rows }));

try {
  // 1. Throughput ---------------------------------------------------------------------------------
  const file1 = join(tmp.dir, 'throughput.db');
  const store = createSqliteStore({ file: file1 });
  await store.migrate();
  const at = new Date();
  const bodies: string[] = [];
  await store.transaction(async (tx) => {
    for (let i = 0; i < EVENTS; i++) {
      const { feedEntry } = await tx.feed.append({
        connection: 'bench',
        type: 'reception.closed',
        dedupeKey: `t${i}`,
        data: { ...fixture, closingDocumentCode: `T-${i}`, documentExternalCode: `T-${i}` },
        at,
      });
      bodies.push(JSON.stringify(toErpFeedEntry(feedEntry)));
    }
  });
  await store.close();
  await control({ reset: true });
  const svc1 = await serve(file1);
  const done1 = await waitFor(async () => (await stats()).unique >= EVENTS, 300_000);
  const s1 = await stats();
  await svc1.stop();
  const oursPerSec = (s1.unique - 1) / ((s1.lastReceipt - s1.firstReceipt) / 1000);

  await control({ reset: true });
  const started = performance.now();
  await pooled(bodies, 64, async (body) => {
    await request(`${receiver.url}/plain`, 'POST', body);
  });
  const baselinePerSec = EVENTS / ((performance.now() - started) / 1000);
  show(`Throughput: ${EVENTS} feed events to a local ERP endpoint (SQLite)`, [
    {
      scenario: 'baseline: plain unsigned POSTs, one loop, 64 in flight',
      delivered: EVENTS,
      'per s': Math.round(baselinePerSec),
      'vs baseline': '1.00',
    },
    {
      scenario: 'wms-sync serve: signed, verified, each attempt recorded',
      delivered: s1.unique,
      'per s': Math.round(oursPerSec),
      'vs baseline': (oursPerSec / baselinePerSec).toFixed(2),
    },
  ]);
  chart.push({
    label: `Deliveries/s, ${EVENTS} events (SQLite)`,
    ours: Math.round(oursPerSec),
    baseline: Math.round(baselinePerSec),
    unit: 'deliveries/s',
  });
  if (!done1 || s1.badSignatures > 0 || s1.duplicates > 0)
    process.stdout.write(
      `!! throughput run: delivered ${s1.unique}/${EVENTS}, bad signatures ${s1.badSignatures}, duplicates ${s1.duplicates}\n`,
    );

  // 2. Latency at a steady rate -------------------------------------------------------------------
  const file2 = join(tmp.dir, 'steady.db');
  await control({ reset: true });
  const svc2 = await serve(file2);
  const poller = feedPoller(svc2.url, ERP_TOKEN, 1000);
  const total = RATE * SECONDS;
  const send = (prefix: string) => async (i: number) =>
    (
      await request(`${svc2.url}/webhooks/bench/reception-close`, 'POST', webhookBody(`${prefix}-${i}`), {
        authorization: AUTH,
      })
    ).status === 200;
  const steady = await paced(total, RATE, send('S'));
  await waitFor(
    async () => (await stats()).unique >= steady.acked.size && poller.seen.size >= steady.acked.size,
    60_000,
  );
  await poller.stop();
  const { receipts, feedAt } = JSON.parse((await request(`${receiver.url}/receipts`, 'GET', undefined)).text) as {
    receipts: Record<string, number>;
    feedAt: Record<string, number>;
  };
  const pushLag: number[] = [];
  const pullLag: number[] = [];
  const feedLag: number[] = [];
  for (const [i, ackAt] of steady.acked) {
    const code = `S-${i}`;
    if (receipts[code] !== undefined) pushLag.push(receipts[code]! - ackAt);
    // The push's own part: from the commit of the feed event (its createdAt, ms) to the receipt.
    if (receipts[code] !== undefined && feedAt[code] !== undefined) feedLag.push(receipts[code]! - feedAt[code]!);
    const seen = poller.seen.get(code);
    if (seen !== undefined) pullLag.push(seen - ackAt);
  }
  const lagRow = (name: string, lags: number[]) => ({
    scenario: name,
    events: lags.length,
    'p50 ms': percentile(lags, 50),
    'p95 ms': percentile(lags, 95),
    'p99 ms': percentile(lags, 99),
    'max ms': Math.max(...lags),
  });
  show(`Latency at ${RATE} events/s for ${SECONDS} s: the WMS's 200 → the ERP has the event (wms-sync serve, SQLite)`, [
    lagRow('baseline: ERP polls GET /erp/v1/feed every 1 s', pullLag),
    lagRow('push: signed POST to the ERP', pushLag),
    lagRow('push only: feed event written → ERP receipt', feedLag),
  ]);
  chart.push({
    label: `p99 WMS ack → ERP receipt at ${RATE}/s`,
    ours: Number(percentile(pushLag, 99).toFixed(1)),
    baseline: Number(percentile(pullLag, 99).toFixed(1)),
    unit: 'ms',
  });

  // 3. ERP down, then back ------------------------------------------------------------------------
  await control({ reset: true });
  const before = await stats();
  let downAt = 0;
  let upAt = 0;
  const outageTotal = RATE * (AROUND + OUTAGE + AROUND);
  const outage = await paced(outageTotal, RATE, send('O'), (ms) => {
    if (!downAt && ms >= AROUND * 1000) {
      downAt = epochMs();
      void control({ down: true });
    }
    if (downAt && !upAt && ms >= (AROUND + OUTAGE) * 1000) {
      upAt = epochMs();
      void control({ down: false });
    }
  });
  const allIn = await waitFor(async () => (await stats()).unique >= outage.acked.size, 120_000);
  const s3 = await stats();
  await svc2.stop();
  const db = new Database(file2, { readonly: true });
  const attempts = db
    .prepare(
      `SELECT probe, count(*) AS n FROM erp_delivery_attempts WHERE status = 503 AND at >= ? AND at <= ? GROUP BY probe`,
    )
    .all(Math.floor(downAt), Math.ceil(upAt) + 1000) as { probe: number; n: number }[];
  db.close();
  const probes = attempts.find((a) => a.probe === 1)?.n ?? 0;
  const burst = attempts.find((a) => a.probe === 0)?.n ?? 0;
  const afterRecovery = (s3.lastReceipt - upAt) / 1000;
  show(`ERP down ${OUTAGE} s under ${RATE} events/s, then back (wms-sync serve, SQLite)`, [
    {
      check: 'events acknowledged to the WMS',
      value: outage.acked.size,
      expected: outageTotal,
      ok: outage.acked.size === outageTotal ? 'yes' : 'NO',
    },
    {
      check: 'delivered, distinct webhook-ids',
      value: s3.unique - before.unique,
      expected: outage.acked.size,
      ok: allIn && s3.unique === outage.acked.size ? 'yes' : 'NO',
    },
    {
      check: 'delivered twice (same webhook-id)',
      value: s3.duplicates,
      expected: 0,
      ok: s3.duplicates === 0 ? 'yes' : 'NO',
    },
    { check: 'bad signatures', value: s3.badSignatures, expected: 0, ok: s3.badSignatures === 0 ? 'yes' : 'NO' },
    {
      check: 'last delivery, seconds after recovery',
      value: Number(afterRecovery.toFixed(1)),
      expected: '≤ 60',
      ok: afterRecovery <= 60 ? 'yes' : 'NO',
    },
    {
      check: 'requests that reached the dead endpoint',
      value: s3.downHits,
      expected: `vs ${RATE * OUTAGE} events`,
      ok: '',
    },
    { check: '… breaker probes among them', value: probes, expected: `≈ ${OUTAGE} s / 5 s`, ok: '' },
    {
      check: '… in flight or claimed before the breaker opened',
      value: burst,
      expected: '≤ concurrency (64) + threshold',
      ok: burst <= 64 + 10 + 16 ? 'yes' : 'NO',
    },
  ]);
} finally {
  await receiver.stop();
  tmp.remove();
}

const file = writeResults('deliver', {
  quick: QUICK,
  events: EVENTS,
  rate: RATE,
  seconds: SECONDS,
  outageSeconds: OUTAGE,
  tables,
  chart,
});
process.stdout.write(`\nwrote ${file}\n`);
