import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export interface Row {
  [column: string]: string | number;
}

/** Prints rows as an aligned table. */
export function printTable(title: string, rows: Row[]): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ');
  process.stdout.write(`\n${title}\n${line(columns)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const r of rows) process.stdout.write(`${line(columns.map((c) => cell(r[c] ?? '')))}\n`);
}

/** The 1-minute load average when the bench started (this module loads first): the machine may be shared. */
const LOAD_AT_START = os.loadavg()[0]!;

/** Writes bench/results/<name>.json with the machine it ran on and its load average at start and end. */
export function writeResults(name: string, results: unknown): string {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}${name}.json`;
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        bench: name,
        at: new Date().toISOString(),
        machine: {
          node: process.version,
          cpus: os.cpus().length,
          cpu: os.cpus()[0]?.model,
          memGiB: Math.round(os.totalmem() / 2 ** 30),
          loadavg: [LOAD_AT_START, os.loadavg()[0]!],
        },
        results,
      },
      null,
      2,
    )}\n`,
  );
  return file;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pooled<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}
