import { type GoalRow, formatNumber as n, type ResultsFile } from './docs.js';

/** The WAL's bound after the quiet, and the cost to the writes it must not stall (`bench/wal.ts`). */
export const WAL_GOAL = { afterQuietMB: 1, commitP99Ratio: 1.5 } as const;

export function wal(file: ResultsFile): GoalRow[] {
  const chart = file.results?.chart ?? file.chart ?? [];
  const bar = (label: string) => chart.find((b) => b.label === label);
  const rows: GoalRow[] = [];
  const quiet = bar('WAL after quiet');
  const commit = bar('commit p99');
  const vs = (b: { baseline: number; unit: string }) => `unbounded ${n(b.baseline)} ${b.unit}`;
  if (quiet)
    rows.push({
      goal: `WAL after the quiet ≤ ${WAL_GOAL.afterQuietMB} MB`,
      measured: `${n(quiet.ours)} MB`,
      baseline: vs(quiet),
      met: quiet.ours <= WAL_GOAL.afterQuietMB,
    });
  if (commit)
    rows.push({
      goal: `writes not stalled: commit p99 ≤ ${WAL_GOAL.commitP99Ratio}× the unbounded WAL's`,
      measured: `${n(commit.ours)} ms`,
      baseline: vs(commit),
      met: commit.ours <= commit.baseline * WAL_GOAL.commitP99Ratio,
    });
  return rows;
}
