import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endMarker, type ResultsFile, renderSection, startMarker } from '../../bench/lib/docs.js';
import { GOAL, GOAL_READERS } from '../../bench/lib/goals.js';

const RESULTS = fileURLToPath(new URL('../../bench/results/', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));
const resultFiles = readdirSync(RESULTS)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: basename(f, '.json'), file: JSON.parse(readFileSync(RESULTS + f, 'utf8')) as ResultsFile }));

const tableFile = (title: string, rows: Record<string, string | number>[]): ResultsFile => ({
  results: { tables: [{ title, rows }], chart: [] },
});

/** A markdown table as its cells, whatever padding the formatter gave it. */
const unpadded = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => (line.startsWith('|') ? line.replace(/\s*\|\s*/g, '|').replace(/-{3,}/g, '---') : line))
    .join('\n');

describe('bench goals', () => {
  it('every results file has a reader, and it finds every figure its goals need', () => {
    expect(resultFiles.length).toBeGreaterThan(0);
    for (const { name, file } of resultFiles) {
      const rows = GOAL_READERS[name]?.(file);
      expect(rows, name).toBeDefined();
      expect(rows!.length, name).toBeGreaterThan(0);
      for (const row of rows!) {
        expect(row.measured, `${name}: ${row.goal}`).not.toBe('not in this run');
        expect(row.met, `${name}: ${row.goal}`).toBeTypeOf('boolean');
      }
    }
  });

  it('docs/benchmarks.md holds every results file as generated, in at most 300 lines', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc.split('\n').length).toBeLessThanOrEqual(300);
    for (const { name, file } of resultFiles) {
      const start = doc.indexOf(startMarker(name));
      const end = doc.indexOf(endMarker(name));
      expect(start, `markers of ${name}`).toBeGreaterThanOrEqual(0);
      expect(end, `markers of ${name}`).toBeGreaterThan(start);
      const inDoc = doc.slice(start + startMarker(name).length, end);
      const generated = renderSection(name, file, `bench/${name}.svg`, GOAL_READERS[name]?.(file));
      expect(unpadded(inDoc), `${name}: run npm run bench:docs`).toBe(unpadded(generated!));
    }
  });

  it('ingest: a row meets its goal exactly when its ratio, p99 and lag are within what the bench wrote', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(0.25, 0.3, 0.5),
        fc.integer({ min: 0, max: 200 }),
        fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
        (ratio, min, p99, lag) => {
          const goal = `≥ ${min.toFixed(2)}, p99 < 50 ms${lag === undefined ? '' : ', lag p99 < 1 s'}: NOT met`;
          const file = tableFile('Ingest', [
            { target: 'baseline: bare Hono JSON echo', 'req/s': 1000, ratio: 1, goal: '' },
            {
              target: 'serve',
              'req/s': 1000 * ratio,
              'p99 ms': p99,
              ratio,
              'lag p99 ms': lag ?? '-',
              events: 'every 2xx stored, all processed',
              goal,
            },
          ]);
          const [row] = GOAL_READERS.ingest!(file);
          const expected = ratio >= min && p99 < 50 && (lag === undefined || lag < 1000);
          expect(row!.met).toBe(expected);
          expect(row!.goal).toContain(`≥ ${min.toFixed(2)} of the echo`);
        },
      ),
    );
  });

  it('ingest: an acknowledged webhook left unstored or unprocessed fails the goal that says so', () => {
    const rows = GOAL_READERS.ingest!(
      tableFile('Ingest', [
        { target: 'baseline: echo', 'req/s': 100, ratio: 1, goal: '' },
        { target: 'serve', 'req/s': 50, ratio: 0.5, 'p99 ms': 5, events: 'stored 10 of 12', goal: '≥ 0.30: met' },
      ]),
    );
    expect(rows.at(-1)).toMatchObject({ met: false, measured: 'not in: serve' });
  });

  it('queue: held jobs must not slow a fetch below the threshold; missing rows read as not measured', () => {
    const file = (held: number) =>
      tableFile('Queue', [
        { adapter: 'sqlite bare table (baseline)', 'jobs/s e2e': 60_000 },
        { adapter: 'embedded queue', 'jobs/s e2e': 20_000 },
        { adapter: 'embedded queue, 1000 one at a time (baseline)', 'jobs/s e2e': 4000 },
        { adapter: 'embedded queue, one at a time, 2000 jobs held', 'jobs/s e2e': held },
      ]);
    const heldRow = (held: number) => GOAL_READERS.queue!(file(held))[1]!;
    expect(heldRow(4000 * GOAL.queue.heldRatio).met).toBe(true);
    expect(heldRow(4000 * GOAL.queue.heldRatio - 1).met).toBe(false);
    const [embedded, , pgBoss] = GOAL_READERS.queue!(file(4000));
    expect(embedded).toMatchObject({ met: true, measured: '20,000 jobs/s' });
    expect(pgBoss).toMatchObject({ met: undefined, measured: 'not in this run' });
  });

  it('close-ack: a row is met only when the bench says so and every answer was as expected', () => {
    const rows = GOAL_READERS['close-ack']!(
      tableFile('ERP close acknowledgement (sync)', [
        { scenario: 'async', 'p99 ms': 5, 'ERP ms': 0, 'answers as expected': 'yes', goal: 'baseline' },
        { scenario: 'one', 'p99 ms': 120, 'ERP ms': 100, 'answers as expected': 'yes', goal: 'p99 < 150 ms: met' },
        { scenario: 'two', 'p99 ms': 120, 'ERP ms': 100, 'answers as expected': 'NO', goal: 'p99 < 150 ms: met' },
        { scenario: 'three', 'p99 ms': 170, 'ERP ms': 100, 'answers as expected': 'yes', goal: 'p99 < 150 ms: MISSED' },
      ]),
    );
    expect(rows.map((r) => r.met)).toEqual([true, false, false]);
    expect(rows[0]).toMatchObject({ goal: 'one: p99 < 150 ms', baseline: 'async acknowledgement p99 5 ms' });
  });
});
