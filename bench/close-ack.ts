// npm run bench:close-ack [-- --quick] [-- --requests 200 --erp-ms 100 --budget-ms 20000 --concurrency 20]
//
// ERP_CLOSE_ACK=sync as shipped: `wms-sync serve` (SQLite, embedded queue, its worker on) in a
// child process, with four connections: `async` (no ERP: the baseline, today's acknowledgement),
// `sync` (an ERP that verifies the signature and accepts after --erp-ms), `refuse` (the same ERP
// refusing every document after --erp-ms) and `hang` (an ERP that never answers). The ERP is a
// plain node:http server in a process of its own (bench/servers/erp.ts): in the bench's process,
// its work and the client's delayed each other (the service saw it answer 15-22 ms late at 20 in
// flight). Each close document is a fresh realistic reception
// (fixtures/webhooks/reception-close.json) of a purchase order of its own; the time measured is
// the WMS's: request sent to answer read (undici's request; a row in flight is warmed first). Checks every answer, that every ERP message verified, and that every accepted
// document was processed (every refused one kept rejected_by_erp), then prints the table and
// writes bench/results/close-ack.json (tables + chart for docs/benchmarks.md).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { tempDir } from '../test/support/tmp.js';
import { startChild } from './lib/child.js';
import { pooled, printTable, type Row, writeResults } from './lib/report.js';

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    requests: { type: 'string' },
    'erp-ms': { type: 'string', default: '100' },
    'budget-ms': { type: 'string' },
    concurrency: { type: 'string', default: '20' },
  },
});
const QUICK = opts.quick;
const REQUESTS = Number(opts.requests ?? (QUICK ? 40 : 300));
const ERP_MS = Number(opts['erp-ms']);
// The shipped default in a full run; a short one with --quick (the hang rows cost one budget).
const BUDGET_MS = Number(opts['budget-ms'] ?? (QUICK ? 2000 : 20_000));
const CONCURRENCY = Number(opts.concurrency);
const HANGING = QUICK ? 5 : 20;
const BIN = fileURLToPath(new URL('../bin/wms-sync.js', import.meta.url));

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const password = randomBytes(12).toString('hex');
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/webhooks/reception-close.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;
let seq = 0;
// Each reception closes a purchase order of its own, as bench:deliver's do: with the fixture's one
// order, every feed entry would wait behind the one before it on its way to the ERP (one key),
// and the feed's backlog on that key would be the measurement (docs/benchmarks.md).
const reception = () => {
  const code = `BENCH-${Date.now().toString(36)}-${++seq}`;
  return JSON.stringify({ ...fixture, closingDocumentCode: code, documentExternalCode: `PO-${code}` });
};

/** The ERP (bench/servers/erp.ts) in its own process: verifies each message, answers after ERP_MS (accept or refuse), or never (hang). */
async function startErp() {
  const child = await startChild(['--import', 'tsx', fileURLToPath(new URL('./servers/erp.ts', import.meta.url))], {
    ERP_SECRET: secret,
    ERP_MS: String(ERP_MS),
  });
  return {
    url: child.url,
    stats: async () => (await (await fetch(`${child.url}/stats`)).json()) as { verified: number; unverified: number },
    stop: child.stop,
  };
}

async function startServe(erpUrl: string, dir: string) {
  const conn = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    wmsBaseUrl: 'http://127.0.0.1:9',
    wmsClientId: 'bench',
    wmsClientSecret: 'bench-secret',
    webhookUsername: 'wms-bench',
    webhookPassword: password,
    erpApiToken: `bench-erp-token-${name}-0123456789`,
    ...extra,
  });
  const sync = (path: string) => ({ erpWebhookUrl: `${erpUrl}${path}`, erpWebhookSecret: secret, erpCloseAck: 'sync' });
  const file = `${dir}/connections.json`;
  writeFileSync(
    file,
    JSON.stringify([
      conn('async'),
      conn('sync', sync('/accept')),
      conn('refuse', sync('/refuse')),
      conn('hang', sync('/hang')),
    ]),
  );
  return startChild([BIN, 'serve', '--port', '0'], {
    LOG_LEVEL: 'info',
    DATA_DIR: dir,
    CONNECTIONS_FILE: file,
    ERP_CLOSE_ACK_TIMEOUT_MS: String(BUDGET_MS),
    RECONCILE_CRON: 'off',
  });
}

const AUTH = `Basic ${Buffer.from(`wms-bench:${password}`).toString('base64')}`;

/**
 * One delivery, timed from sending to the answer read. undici's `request`, not fetch: 20 answers
 * arriving together wait for this process's CPU before they are timed, and fetch's per-answer cost
 * (WHATWG Response, body stream) made the client's queue part of the figure.
 */
async function deliver(
  serviceUrl: string,
  connection: string,
): Promise<{ ms: number; body: { success: boolean; message?: string } }> {
  const payload = reception();
  const started = performance.now();
  const res = await request(`${serviceUrl}/webhooks/${connection}/reception-close`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: payload,
  });
  const body = (await res.body.json()) as { success: boolean; message?: string };
  if (res.statusCode !== 200) throw new Error(`${connection}: HTTP ${res.statusCode} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const round = (x: number) => Math.round(x * 100) / 100;

interface Scenario {
  name: string;
  connection: string;
  requests: number;
  inFlight: number;
  expect: 'accepted' | 'refused';
}

async function measure(serviceUrl: string, s: Scenario) {
  const times: number[] = [];
  let wrong = 0;
  await pooled(
    Array.from({ length: s.requests }, (_, i) => i),
    s.inFlight,
    async () => {
      const r = await deliver(serviceUrl, s.connection);
      times.push(r.ms);
      if (r.body.success !== (s.expect === 'accepted')) wrong += 1;
    },
  );
  return { times, wrong };
}

async function metricsOf(serviceUrl: string, status: string): Promise<number> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  return Number(new RegExp(`^wms_sync_inbound_events\\{status="${status}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

async function main(): Promise<void> {
  const tmp = tempDir('bench-close-ack');
  const erp = await startErp();
  const serve = await startServe(erp.url, tmp.dir);
  const warm = 10;
  try {
    for (let i = 0; i < warm; i++) await deliver(serve.url, 'async');
    for (let i = 0; i < warm; i++) await deliver(serve.url, 'sync');
    const scenarios: Scenario[] = [
      {
        name: 'baseline: async ack (no ERP), one at a time',
        connection: 'async',
        requests: REQUESTS,
        inFlight: 1,
        expect: 'accepted',
      },
      {
        name: `sync, ERP accepts in ${ERP_MS} ms, one at a time`,
        connection: 'sync',
        requests: REQUESTS,
        inFlight: 1,
        expect: 'accepted',
      },
      {
        name: `sync, ERP refuses in ${ERP_MS} ms, one at a time`,
        connection: 'refuse',
        requests: REQUESTS,
        inFlight: 1,
        expect: 'refused',
      },
      {
        name: `sync, ERP accepts in ${ERP_MS} ms, ${CONCURRENCY} in flight`,
        connection: 'sync',
        requests: REQUESTS,
        inFlight: CONCURRENCY,
        expect: 'accepted',
      },
      {
        name: `sync, ERP hangs (budget ${BUDGET_MS} ms), ${HANGING} at once`,
        connection: 'hang',
        requests: HANGING,
        inFlight: HANGING,
        expect: 'accepted',
      },
    ];
    process.stdout.write(
      `wms-sync serve (SQLite), ${REQUESTS} receptions per row after ${warm} warm-up, ERP answers in ${ERP_MS} ms, budget ${BUDGET_MS} ms\n`,
    );
    const measured: { s: Scenario; times: number[]; wrong: number }[] = [];
    let warmed = 0;
    for (const s of scenarios) {
      // A row with requests in flight first opens its connections (client to serve, serve to the
      // ERP) with two untimed waves, as the one-at-a-time rows are warmed above.
      if (s.inFlight > 1 && s.connection !== 'hang')
        warmed += (await measure(serve.url, { ...s, requests: 2 * s.inFlight })).times.length;
      const r = await measure(serve.url, s);
      measured.push({ s, ...r });
      process.stdout.write(`  ${s.name}: p99 ${round(pct(r.times, 99))} ms\n`);
    }
    // Every accepted document processed, every refused one kept: read from the service's metrics.
    const refused = REQUESTS;
    const accepted = 2 * warm + warmed + 3 * REQUESTS + HANGING;
    const deadline = Date.now() + 120_000;
    let processed = 0;
    while ((processed = await metricsOf(serve.url, 'processed')) < accepted && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    const kept = await metricsOf(serve.url, 'rejected_by_erp');
    const erpStats = await erp.stats();

    const base = measured[0]!;
    const baseP99 = pct(base.times, 99);
    const rows: Row[] = measured.map(({ s, times, wrong }) => {
      const p99 = pct(times, 99);
      const erpMs = s.connection === 'async' ? 0 : s.connection === 'hang' ? BUDGET_MS : ERP_MS;
      const goal =
        s.connection === 'hang'
          ? `200 within the budget (+1 s)`
          : s.connection === 'async'
            ? ''
            : `p99 < ${ERP_MS + 50} ms`;
      const met =
        s.connection === 'hang'
          ? Math.max(...times) < BUDGET_MS + 1000
          : s.connection === 'async'
            ? true
            : p99 < ERP_MS + 50;
      return {
        scenario: s.name,
        requests: times.length,
        'p50 ms': round(pct(times, 50)),
        'p99 ms': round(p99),
        'max ms': round(Math.max(...times)),
        'ERP ms': erpMs,
        'p99 − ERP ms': round(p99 - erpMs),
        'p99 / baseline': round(p99 / baseP99),
        'answers as expected': wrong === 0 ? 'yes' : `NO (${wrong} wrong)`,
        goal: goal ? `${goal}: ${met ? 'met' : 'MISSED'}` : 'baseline',
      };
    });
    printTable('ERP close acknowledgement (sync): time from the WMS sending a reception to its answer', rows);
    const checks: Row[] = [
      {
        check: 'ERP messages with a valid signature',
        value: `${erpStats.verified} of ${erpStats.verified + erpStats.unverified}`,
      },
      { check: 'accepted receptions processed', value: `${processed} of ${accepted}` },
      { check: 'refused receptions kept rejected_by_erp', value: `${kept} of ${refused}` },
    ];
    printTable('Checks', checks);
    const ok =
      erpStats.unverified === 0 && processed >= accepted && kept === refused && measured.every((m) => m.wrong === 0);
    const chart = measured.slice(1).map(({ s, times }) => ({
      label: s.connection === 'hang' ? `${s.name}: slowest answer` : `${s.name}: p99`,
      ours: round(s.connection === 'hang' ? Math.max(...times) : pct(times, 99)),
      baseline: round(s.connection === 'hang' ? BUDGET_MS : baseP99),
      unit: 'ms',
    }));
    const file = writeResults('close-ack', {
      quick: QUICK,
      requests: REQUESTS,
      erpMs: ERP_MS,
      budgetMs: BUDGET_MS,
      note: 'wms-sync serve as shipped (bin/wms-sync.js, SQLite, its worker on); the client runs in the bench process, the ERP in a process of its own (bench/servers/erp.ts), over loopback',
      tables: [
        { title: 'ERP close acknowledgement (sync): time from the WMS sending a reception to its answer', rows },
        { title: 'Checks', rows: checks },
      ],
      chart,
      ok,
    });
    process.stdout.write(`\n${ok ? 'all checks passed' : 'CHECKS FAILED'}; wrote ${file}\n`);
    if (!ok) process.exitCode = 1;
  } finally {
    await serve.stop();
    await erp.stop();
    tmp.remove();
  }
}

await main();
