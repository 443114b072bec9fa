/**
 * Every benchmark of package.json's `bench:*` scripts, one after the other, then the docs
 * regenerated from their results (docs/benchmarks.md tables and docs/bench/*.svg; see bench/docs.ts).
 * Benchmarks that only run on Postgres when given its URL get an extra run on Postgres when one
 * answers (BENCH_DATABASE_URL, TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test).
 *   npm run bench [-- --quick] [-- --only queue,reconcile] [-- --skip console]
 * `--quick` passes `--quick` to each bench (short parameters; a few minutes in all).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatWithBiome } from './lib/format.js';
import { BENCH_PG_URL, postgresAnswers } from './lib/postgres.js';
import { regenerateDocs } from './lib/regenerate.js';
import { printTable, type Row } from './lib/report.js';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, skip: { type: 'string' } },
});
const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const scripts = (JSON.parse(readFileSync(root('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const list = (s: string | undefined) =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : undefined;
const only = list(values.only);
const skip = list(values.skip) ?? [];

const PG_URL = BENCH_PG_URL;

/**
 * Arguments a full run gives a bench beyond its defaults: reconciliation at its goal's size (a
 * million rows, beside 100,000 to show memory flat) with the heap limit docs/scaling.md sets for
 * processes that reconcile big warehouses. `--quick` runs keep the bench's quick knobs.
 */
const FULL_ARGS: Record<string, string[]> = {
  reconcile: ['--rows', '100000,1000000', '--max-old-space-mb', '256'],
};

/** Extra runs of a bench (its results file names them), for benches that take Postgres as a knob. */
const EXTRA: Record<string, { results: string; args: string[] }[]> = {
  reconcile: [{ results: 'reconcile-pg', args: ['--database-url', PG_URL] }],
};

interface Run {
  name: string;
  script: string;
  args: string[];
}

const runs: Run[] = [];
const withPostgres = await postgresAnswers();
for (const script of Object.keys(scripts)) {
  if (!script.startsWith('bench:') || script === 'bench:docs') continue;
  const name = script.slice('bench:'.length);
  if ((only && !only.includes(name)) || skip.includes(name)) continue;
  const full = values.quick ? [] : (FULL_ARGS[name] ?? []);
  runs.push({ name, script, args: full });
  if (withPostgres)
    for (const extra of EXTRA[name] ?? [])
      if (!skip.includes(extra.results)) runs.push({ name: extra.results, script, args: [...full, ...extra.args] });
}

function run(r: Run): Promise<number> {
  const args = ['run', r.script, '--', ...(values.quick ? ['--quick'] : []), ...r.args];
  process.stdout.write(`\n=== ${r.name}: npm ${args.join(' ')}\n`);
  const child = spawn('npm', args, { stdio: 'inherit', cwd: root('.') });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const rows: Row[] = [];
const started = performance.now();
for (const r of runs) {
  const t = performance.now();
  const code = await run(r);
  rows.push({
    bench: r.name,
    seconds: (performance.now() - t) / 1000,
    result: code === 0 ? 'ok' : `FAILED (exit ${code})`,
  });
}
printTable(
  `${runs.length} benches${values.quick ? ' (quick)' : ''} in ${((performance.now() - started) / 1000).toFixed(0)} s${withPostgres ? '' : '; Postgres not reachable, its extra runs left out'}`,
  rows,
);

const done = regenerateDocs({
  resultsDir: root('bench/results'),
  docFile: root('docs/benchmarks.md'),
  svgDir: root('docs/bench'),
  svgLink: 'bench',
  format: formatWithBiome,
});
process.stdout.write(`\ndocs/benchmarks.md: ${done.length ? done.join(', ') : 'no section'} regenerated\n`);
if (rows.some((r) => r.result !== 'ok')) process.exitCode = 1;
