/**
 * The SQLite WAL's size after a burst of writes and after the quiet that follows, with the bound
 * (journal_size_limit and the truncating checkpoint, `src/store/sqlite/checkpointer.ts`) and
 * without it (SQLite's default: the baseline), in the same run.
 *   npm run bench:wal [-- --burst-seconds 60 --quiet-seconds 30]
 * The burst writes as the receiver does: commits of 20 events of 2 KB, as fast as they go, on the
 * store's connection with the checkpoint thread running beside it.
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { WAL_SIZE_LIMIT_BYTES } from '../src/store/sqlite/checkpointer.js';
import { openSqlite } from '../src/store/sqlite/database.js';
import { tempDir } from '../test/support/tmp.js';
import { printTable, writeResults } from './lib/report.js';

const { values } = parseArgs({
  options: { 'burst-seconds': { type: 'string', default: '60' }, 'quiet-seconds': { type: 'string', default: '30' } },
});
const burstMs = Number(values['burst-seconds']) * 1000;
const quietMs = Number(values['quiet-seconds']) * 1000;
const MB = 1024 * 1024;

const walBytes = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

interface Run {
  mode: string;
  events: number;
  'events/s': number;
  'WAL peak MB': number;
  'WAL after burst MB': number;
  'WAL after quiet MB': number;
  'database MB': number;
  'commit p99 ms': number;
}

async function run(mode: string, walLimitBytes: number | null | undefined): Promise<Run> {
  const tmp = tempDir('bench-wal');
  const file = `${tmp.dir}/wms-sync.db`;
  const db = openSqlite(file, walLimitBytes === undefined ? {} : { walLimitBytes });
  db.raw.exec('CREATE TABLE events (id INTEGER PRIMARY KEY, code TEXT UNIQUE, body TEXT)');
  const insert = db.raw.prepare('INSERT INTO events (code, body) VALUES (?, ?)');
  const body = 'x'.repeat(2048);
  const commit = db.raw.transaction((from: number) => {
    for (let i = 0; i < 20; i++) insert.run(`E-${from + i}`, body);
  });
  let events = 0;
  let peak = 0;
  const commits: number[] = [];
  const started = Date.now();
  while (Date.now() - started < burstMs) {
    const t = performance.now();
    commit(events);
    commits.push(performance.now() - t);
    events += 20;
    if (events % 2000 === 0) peak = Math.max(peak, walBytes(file));
    // The receiver answers between commits: the event loop turns.
    await new Promise((r) => setImmediate(r));
  }
  const afterBurst = walBytes(file);
  peak = Math.max(peak, afterBurst);
  await new Promise((r) => setTimeout(r, quietMs));
  const afterQuiet = walBytes(file);
  const database = statSync(file).size;
  await db.close();
  tmp.remove();
  commits.sort((a, b) => a - b);
  return {
    mode,
    events,
    'events/s': Math.round(events / (burstMs / 1000)),
    'WAL peak MB': peak / MB,
    'WAL after burst MB': afterBurst / MB,
    'WAL after quiet MB': afterQuiet / MB,
    'database MB': database / MB,
    'commit p99 ms': commits[Math.floor(commits.length * 0.99)] ?? 0,
  };
}

const baseline = await run('unbounded, PASSIVE only (baseline)', null);
const bounded = await run(
  `bounded: journal_size_limit ${WAL_SIZE_LIMIT_BYTES / MB} MB + TRUNCATE when quiet`,
  undefined,
);
const rows = [baseline, bounded];
printTable(`SQLite WAL: ${burstMs / 1000} s burst, then ${quietMs / 1000} s quiet`, rows as never);
const file = writeResults('wal', {
  burstSeconds: burstMs / 1000,
  quietSeconds: quietMs / 1000,
  limitMB: WAL_SIZE_LIMIT_BYTES / MB,
  quick: burstMs < 60_000 || quietMs < 30_000,
  tables: [{ title: 'SQLite WAL after a burst and a quiet', rows }],
  chart: [
    {
      label: 'WAL after quiet',
      ours: bounded['WAL after quiet MB'],
      baseline: baseline['WAL after quiet MB'],
      unit: 'MB',
    },
    {
      label: 'WAL after burst',
      ours: bounded['WAL after burst MB'],
      baseline: baseline['WAL after burst MB'],
      unit: 'MB',
    },
    { label: 'commit p99', ours: bounded['commit p99 ms'], baseline: baseline['commit p99 ms'], unit: 'ms' },
  ],
});
process.stdout.write(`\n${file}\n`);
