/**
 * Each bench's goals, read from its results file: what docs/benchmarks.md shows in the bench's
 * table (goal, figure, same-run baseline, met). Where a bench prints its own verdict (push, ingest,
 * close-ack, console, admin-events) the reader takes it from the results; the thresholds below are
 * the others'. A figure missing from a results file (a bench run with `--only`, an older file) reads
 * "not in this run" rather than failing the whole document.
 */
import { type GoalRow, formatNumber as n, type ResultsFile } from './docs.js';
import { wal } from './goals-wal.js';
import type { Row } from './report.js';

export const GOAL = {
  queue: { embeddedJobsPerSecond: 5000, pgBossJobsPerSecond: 1000, heldRatio: 0.75 },
  reconcile: { seconds: 45, rssMB: 300 },
  deliver: { perSecond: 2000, p99Ms: 50, recoverySeconds: 60 },
  feedClaim: { ratio: 0.75 },
  webhookRead: { ratio: 1 },
} as const;

const NOT_RUN = 'not in this run';
const missing = (goal: string): GoalRow => ({ goal, measured: NOT_RUN, baseline: '', met: undefined });
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const ratio = (ours: number, base: number) => (base ? `; ratio ${n(ours / base)}` : '');

function rowsOf(file: ResultsFile, titleStart?: string): Row[] {
  const tables = file.results?.tables ?? file.tables ?? [];
  return tables.filter((t) => titleStart === undefined || t.title.startsWith(titleStart)).flatMap((t) => t.rows);
}
const find = (rows: Row[], column: string, test: RegExp) => rows.find((r) => test.test(String(r[column] ?? '')));
const results = (file: ResultsFile) => (file.results ?? {}) as Record<string, any>;

function queue(file: ResultsFile): GoalRow[] {
  const rows = rowsOf(file);
  const jobs = (adapter: RegExp) => num(find(rows, 'adapter', adapter)?.['jobs/s e2e']);
  const throughput = (label: string, ours: RegExp, bare: RegExp, min: number, bareName: string): GoalRow => {
    const goal = `${label}: ≥ ${n(min)} jobs/s end to end`;
    const [o, b] = [jobs(ours), jobs(bare)];
    if (o === undefined || b === undefined) return missing(goal);
    return { goal, measured: `${n(o)} jobs/s`, baseline: `${bareName} ${n(b)} rows/s${ratio(o, b)}`, met: o >= min };
  };
  const held = (label: string, prefix: string): GoalRow => {
    const goal = `${label}: a job behind thousands held for later is fetched as fast (≥ ${GOAL.queue.heldRatio})`;
    const o = jobs(new RegExp(`^${prefix}, one at a time, \\d+ jobs held$`));
    const b = jobs(new RegExp(`^${prefix}, \\d+ one at a time \\(baseline\\)$`));
    if (o === undefined || b === undefined) return missing(goal);
    return {
      goal,
      measured: `${n(o)} jobs/s one at a time`,
      baseline: `none held ${n(b)} jobs/s${ratio(o, b)}`,
      met: o / b >= GOAL.queue.heldRatio,
    };
  };
  const q = GOAL.queue;
  return [
    throughput('embedded (SQLite)', /^embedded queue$/, /^sqlite bare table/, q.embeddedJobsPerSecond, 'bare table'),
    held('embedded (SQLite)', 'embedded queue'),
    throughput('pg-boss (Postgres)', /^pg-boss queue$/, /^postgres bare table/, q.pgBossJobsPerSecond, 'bare table'),
    held('pg-boss (Postgres)', 'pg-boss queue'),
  ];
}

/** `≥ 0.30, p99 < 50 ms, lag p99 < 1 s: NOT met`, as bench:ingest writes its goal column. */
function ingest(file: ResultsFile): GoalRow[] {
  const rows = rowsOf(file);
  const echo = rows.find((r) => String(r.target).startsWith('baseline'));
  const out: GoalRow[] = [];
  for (const r of rows) {
    const text = String(r.goal ?? '').replace(/:\s*(NOT )?met$/, '');
    if (!text || r === echo) continue;
    const minRatio = Number(/≥ ([\d.]+)/.exec(text)?.[1]);
    const maxP99 = Number(/p99 < (\d+) ms/.exec(text)?.[1] ?? Number.POSITIVE_INFINITY);
    const [rate, p99, lag] = [num(r['req/s']), num(r['p99 ms']), num(r['lag p99 ms'])];
    const okRatio = num(r.ratio) !== undefined && (r.ratio as number) >= minRatio;
    const okLatency = (p99 ?? Number.POSITIVE_INFINITY) < maxP99 && (lag === undefined || lag < 1000);
    out.push({
      goal: `${r.target}: ${text.replace(/^≥ ([\d.]+)/, '≥ $1 of the echo')}`,
      measured: `${n(rate ?? 0)} req/s, p99 ${n(p99 ?? 0)} ms${lag === undefined ? '' : `, lag p99 ${n(lag)} ms`}`,
      baseline: echo ? `echo ${n(num(echo['req/s']) ?? 0)} req/s; ratio ${n(num(r.ratio) ?? 0)}` : '',
      met: okRatio && okLatency,
      ...(okRatio && okLatency
        ? {}
        : { note: [okRatio ? '' : 'ratio', okLatency ? '' : 'latency'].filter(Boolean).join(', ') }),
    });
  }
  const processed = rows.filter((r) => r !== echo && r.events);
  if (processed.length > 0) {
    const lost = processed.filter((r) => !String(r.events).startsWith('every 2xx stored'));
    out.push({
      goal: 'every acknowledged webhook stored, and processed where a worker runs',
      measured:
        lost.length === 0 ? `in all ${processed.length} rows` : `not in: ${lost.map((r) => r.target).join('; ')}`,
      baseline: '',
      met: lost.length === 0,
    });
  }
  return out.length > 0 ? out : [missing('webhooks per second against the echo')];
}

function push(file: ResultsFile): GoalRow[] {
  const rows = rowsOf(file).filter((r) => r.goal);
  if (rows.length === 0) return [missing('items pushed per second')];
  return rows.map((r) => ({
    goal: `${r.scenario}: ${String(r.goal).replace('>=', '≥')}`,
    measured: `${n(num(r['items/s']) ?? 0)} items/s${r['429 share'] && r['429 share'] !== '-' ? `, ${r['429 share']} 429` : ''}; synced ${r.synced}`,
    baseline: `${r.baseline}: ${n(num(r['baseline items/s']) ?? 0)} items/s; ratio ${n(num(r.ratio) ?? 0)}`,
    met: r.met === 'yes',
  }));
}

function emulator(file: ResultsFile): GoalRow[] {
  const r = results(file);
  const goals = r.goals ?? {};
  const out: GoalRow[] = [];
  const slowest = (list: any[] | undefined, goal: string, limit: number | undefined) => {
    const measuredRows = (list ?? []).filter((q) => !String(q.query).startsWith('baseline'));
    const base = (list ?? []).find((q) => String(q.query).startsWith('baseline'));
    if (measuredRows.length === 0 || limit === undefined) return missing(goal);
    const worst = measuredRows.reduce((a, b) => (b.p99_ms > a.p99_ms ? b : a));
    const under = measuredRows.filter((q) => q.p99_ms < limit).length;
    return {
      goal,
      measured: `${under} of ${measuredRows.length} under; slowest p99 ${n(worst.p99_ms)} ms: ${worst.query}`,
      baseline: base ? `${String(base.query).replace(/^baseline: /, '')}: p99 ${n(base.p99_ms)} ms` : '',
      met: under === measuredRows.length,
    };
  };
  out.push(
    slowest(
      r.list,
      `criteria lists, page of 20, ${n(r.products ?? 0)} products: p99 < ${goals.listP99Ms} ms`,
      goals.listP99Ms,
    ),
  );
  out.push(
    slowest(
      r.stock?.queries,
      `stock (endpoint 7), batches of 100, ${n(r.stock?.rows ?? 0)} rows: p99 < ${goals.stockBatchP99Ms} ms`,
      goals.stockBatchP99Ms,
    ),
  );
  const tokenGoal = `token issuance: > ${n(goals.tokensPerSecond ?? 0)} tokens/s`;
  const t = r.tokens;
  out.push(
    t?.emulator && t?.baseline && goals.tokensPerSecond
      ? {
          goal: tokenGoal,
          measured: `${n(t.emulator.perSecond)} tokens/s, p99 ${n(t.emulator.p99)} ms`,
          baseline: `bare form POST ${n(t.baseline.perSecond)}/s${ratio(t.emulator.perSecond, t.baseline.perSecond)}`,
          met: t.emulator.perSecond > goals.tokensPerSecond,
        }
      : missing(tokenGoal),
  );
  return out;
}

function reconcile(file: ResultsFile): GoalRow[] {
  const r = results(file);
  const g = GOAL.reconcile;
  const every = num(r.knobs?.driftEvery) ?? 100;
  const sizes: any[] = r.sizes ?? [];
  if (sizes.length === 0) return [missing(`each run < ${g.seconds} s and < ${g.rssMB} MB peak RSS`)];
  return sizes.map((s) => {
    const drift = Math.round(s.rows / every);
    const rss = Math.max(s.first.maxRssMB, s.second.maxRssMB);
    const checks = {
      time: s.first.seconds < g.seconds && s.second.seconds < g.seconds,
      memory: rss < g.rssMB,
      drift: s.first.status === 'completed' && s.first.drift === drift && s.second.drift === 0,
    };
    const failed = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([k]) => k);
    return {
      goal: `${n(s.rows)} rows, one in ${every} drifted: each run < ${g.seconds} s, peak RSS < ${g.rssMB} MB, every drift found once`,
      measured: `first run ${n(s.first.seconds)} s, second ${n(s.second.seconds)} s; peak RSS ${s.first.maxRssMB} / ${s.second.maxRssMB} MB; drift ${n(s.first.drift)} then ${n(s.second.drift)}`,
      baseline: `raw endpoint-7 calls ${n(s.raw.seconds)} s, ${s.raw.maxRssMB} MB`,
      met: failed.length === 0,
      ...(failed.length ? { note: failed.join(', ') } : {}),
    };
  });
}

function adminEvents(file: ResultsFile): GoalRow[] {
  const rows: Row[] = results(file).rows ?? [];
  const stores = [...new Set(rows.map((r) => String(r.store)))];
  if (stores.length === 0) return [missing('every filter combination p95 < 100 ms')];
  return stores.map((store) => {
    const mine = rows.filter((r) => r.store === store);
    const worst = mine.reduce((a, b) => ((num(b['p95 ms']) ?? 0) > (num(a['p95 ms']) ?? 0) ? b : a));
    const under = mine.filter((r) => r['< 100 ms'] === 'yes').length;
    return {
      goal: `${store}: every filter combination (${mine.length}) p95 < 100 ms, ${n(results(file).events ?? 0)} events`,
      measured: `slowest p95 ${n(num(worst['p95 ms']) ?? 0)} ms (${worst.filters}); ${under} of ${mine.length} under`,
      baseline: 'none: the goal is absolute',
      met: under === mine.length,
    };
  });
}

function consolePages(file: ResultsFile): GoalRow[] {
  const rows: any[] = (results(file).results ?? []).flatMap((x: any) => x.rows ?? []);
  const backends = [...new Set(rows.map((r) => String(r.backend)))];
  if (backends.length === 0) return [missing('every console list page p95 < 100 ms')];
  return backends.map((backend) => {
    const mine = rows.filter((r) => r.backend === backend);
    const worst = mine.reduce((a, b) => (b.console.p95 > a.console.p95 ? b : a));
    const api = mine.reduce((a, b) => (b.api.p95 > a.api.p95 ? b : a));
    return {
      goal: `${backend}: every console list page (${mine.length}) p95 < 100 ms`,
      measured: `slowest p95 ${n(worst.console.p95)} ms (${worst.page})`,
      baseline: `JSON admin API, same queries: slowest p95 ${n(api.api.p95)} ms`,
      met: mine.every((r) => r.goalMet === true),
    };
  });
}

function deliver(file: ResultsFile): GoalRow[] {
  const g = GOAL.deliver;
  const out: GoalRow[] = [];
  const tput = rowsOf(file, 'Throughput');
  const ours = num(find(tput, 'scenario', /^wms-sync serve/)?.['per s']);
  const plain = num(find(tput, 'scenario', /^baseline/)?.['per s']);
  const tputGoal = `throughput, signed and each attempt recorded: ≥ ${n(g.perSecond)} deliveries/s`;
  out.push(
    ours === undefined || plain === undefined
      ? missing(tputGoal)
      : {
          goal: tputGoal,
          measured: `${n(ours)} deliveries/s`,
          baseline: `plain unsigned POSTs ${n(plain)}/s${ratio(ours, plain)}`,
          met: ours >= g.perSecond,
        },
  );
  const lat = rowsOf(file, 'Latency');
  const push = num(find(lat, 'scenario', /^push: /)?.['p99 ms']);
  const poll = num(find(lat, 'scenario', /^baseline/)?.['p99 ms']);
  const latGoal = `WMS's 200 → ERP receipt at 500 events/s: p99 < ${g.p99Ms} ms`;
  out.push(
    push === undefined || poll === undefined
      ? missing(latGoal)
      : {
          goal: latGoal,
          measured: `p99 ${n(push)} ms`,
          baseline: `ERP polling the feed every 1 s: p99 ${n(poll)} ms`,
          met: push < g.p99Ms,
        },
  );
  const outage = rowsOf(file, 'ERP down').filter((r) => r.ok);
  const outageGoal = `ERP down 30 s: every event delivered once, signed, within ${g.recoverySeconds} s of recovery`;
  const value = (test: RegExp) => find(outage, 'check', test)?.value;
  out.push(
    outage.length === 0
      ? missing(outageGoal)
      : {
          goal: outageGoal,
          measured: `${n(num(value(/^delivered, distinct/)) ?? 0)} of ${n(num(value(/^events acknowledged/)) ?? 0)} delivered, ${value(/^delivered twice/)} twice, ${value(/^bad signatures/)} bad signatures; the last ${value(/^last delivery/)} s after recovery`,
          baseline: '',
          met: outage.every((r) => r.ok === 'yes'),
        },
  );
  return out;
}

function feedClaim(file: ResultsFile): GoalRow[] {
  const rows = rowsOf(file);
  const stores = [...new Set(rows.map((r) => String(r.store)))];
  const min = GOAL.feedClaim.ratio;
  if (stores.length === 0) return [missing('a backlog behind the heads costs a claim nothing')];
  return stores.map((store) => {
    const mine = rows.filter((r) => r.store === store);
    const base = mine.find((r) => /\(baseline\)$/.test(String(r.scenario)));
    const behind = mine.find((r) => r !== base);
    const goal = `${store}: deliveries waiting behind each key's head cost a claim nothing (≥ ${min} of none behind)`;
    if (!base || !behind) return missing(goal);
    const idle = num(behind['idle ratio']) ?? 0;
    const drain = num(behind['drain ratio']) ?? 0;
    return {
      goal,
      measured: `${behind.scenario}: ${n(num(behind['idle claims/s']) ?? 0)} idle claims/s, drain ${n(num(behind['drain deliveries/s']) ?? 0)} deliveries/s`,
      baseline: `none behind: ${n(num(base['idle claims/s']) ?? 0)} claims/s, ${n(num(base['drain deliveries/s']) ?? 0)} deliveries/s; ratios ${n(idle)}, ${n(drain)}`,
      met: idle >= min && drain >= min,
    };
  });
}

function logger(file: ResultsFile): GoalRow[] {
  const rows = rowsOf(file);
  const shapes = [...new Set(rows.map((r) => String(r.line)))];
  const goal = 'every secret censored at any depth, faster than pino redacting a path list, on every line shape';
  const pairs = shapes.map((shape) => {
    const mine = rows.filter((r) => r.line === shape);
    const rate = (test: RegExp) => num(find(mine, 'logger', test)?.['lines/s']);
    return { ours: rate(/^createLogger/), paths: rate(/path list/), bare: rate(/no redaction/) };
  });
  const complete = pairs.filter((p) => p.ours !== undefined && p.paths !== undefined && p.bare !== undefined);
  if (complete.length === 0) return [missing(goal)];
  const range = (xs: number[]) => `${n(Math.min(...xs))}–${n(Math.max(...xs))}`;
  return [
    {
      goal,
      measured: `${range(complete.map((p) => p.ours!))} lines/s (${range(complete.map((p) => p.ours! / p.bare!))} of no redaction)`,
      baseline: `pino without redaction ${range(complete.map((p) => p.bare!))}; with a path list ${range(complete.map((p) => p.paths!))}`,
      met: complete.every((p) => p.ours! > p.paths!),
    },
  ];
}

function webhookRead(file: ResultsFile): GoalRow[] {
  const chart = file.results?.chart ?? file.chart ?? [];
  const goal = `tolerant reading of every spec-legal form costs no more than a strict zod check (≤ ${GOAL.webhookRead.ratio}×)`;
  if (chart.length === 0) return [missing(goal)];
  return chart.map((bar) => ({
    goal: `${bar.label}: ${goal}`,
    measured: `${n(bar.ours)} ${bar.unit} per delivery`,
    baseline: `strict zod ${n(bar.baseline)} ${bar.unit}${ratio(bar.ours, bar.baseline)}`,
    met: bar.ours / bar.baseline <= GOAL.webhookRead.ratio,
  }));
}

function closeAck(file: ResultsFile): GoalRow[] {
  const rows = rowsOf(file, 'ERP close acknowledgement');
  const base = rows.find((r) => r.goal === 'baseline');
  const out: GoalRow[] = rows
    .filter((r) => r !== base && r.goal)
    .map((r) => ({
      goal: `${r.scenario}: ${String(r.goal).replace(/:\s*(met|MISSED)$/, '')}`,
      measured: `p99 ${n(num(r['p99 ms']) ?? 0)} ms (the ERP's own ${n(num(r['ERP ms']) ?? 0)} ms included)`,
      baseline: base ? `async acknowledgement p99 ${n(num(base['p99 ms']) ?? 0)} ms` : '',
      met: /:\s*met$/.test(String(r.goal)) && r['answers as expected'] === 'yes',
    }));
  const checks = rowsOf(file, 'Checks');
  if (checks.length > 0) {
    const whole = (v: unknown) => /^(\d+) of \1$/.test(String(v));
    out.push({
      goal: 'every message to the ERP signed; every accepted document processed; every refused one kept rejected_by_erp',
      measured: checks.map((c) => String(c.value)).join('; '),
      baseline: '',
      met: checks.every((c) => whole(c.value)),
    });
  }
  return out.length > 0 ? out : [missing('sync acknowledgement p99 < 150 ms')];
}

/** The readers, by results file name (bench/results/<name>.json). */
/** bench:footprint writes its verdict in each row's `goal` column (`…: met` / `…: NOT met`). */
function footprint(file: ResultsFile): GoalRow[] {
  const rows = rowsOf(file);
  const bare = rows.find((r) => String(r.process ?? '').startsWith('baseline'));
  const out: GoalRow[] = [];
  for (const r of rows) {
    const text = String(r.goal ?? '');
    if (!/:\s*(NOT )?met$/.test(text)) continue;
    const what = String(r.what ?? r.process);
    const measured =
      r.measured !== undefined
        ? String(r.measured)
        : r['median ms'] !== undefined
          ? `${n(num(r['median ms']) ?? 0)} ms (median)`
          : `idle ${n(num(r['idle MB']) ?? 0)} MB, after the ingest ${n(num(Object.entries(r).find(([k]) => k.startsWith('after'))?.[1]) ?? 0)} MB`;
    out.push({
      goal: `${what}: ${text.replace(/:\s*(NOT )?met$/, '')}`,
      measured,
      baseline:
        r['median ms'] !== undefined && bare
          ? `bare Hono ${n(num(bare['median ms']) ?? 0)} ms; ratio ${n(num(r.ratio) ?? 0)}`
          : '',
      met: /:\s*met$/.test(text),
    });
  }
  return out.length > 0 ? out : [missing('production node_modules ≤ 60 MB')];
}

export const GOAL_READERS: Record<string, (file: ResultsFile) => GoalRow[]> = {
  queue,
  ingest,
  push,
  emulator,
  reconcile,
  'reconcile-pg': reconcile,
  'admin-events': adminEvents,
  console: consolePages,
  deliver,
  'feed-claim': feedClaim,
  logger,
  'webhook-read': webhookRead,
  'close-ack': closeAck,
  footprint,
  wal,
};
