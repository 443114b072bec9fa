import { silentLogger } from '../lib/logger.js';
import { type PruneResult, runPrune } from '../retention/prune.js';
import { configFrom, parse, withUsage } from './args.js';
import { withServiceDeps } from './service-deps.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync prune [--dry-run] [--json]

Removes what is older than its retention (docs/operations.md), step by step, each with its own
setting: raw bodies of processed events (INBOUND_RETENTION_DAYS, 90) and of rejected ones
(INBOUND_REJECTED_RETENTION_DAYS, 30), dedupe keys (DEDUPE_RETENTION_DAYS, 400: a re-delivery
within it is still a duplicate), feedEntries (FEED_RETENTION_DAYS, 180), ledger
movements (LEDGER_RETENTION_DAYS, 180: rolled into an opening balance per product and lot, so
reconciliation's figures do not change), finished reconciliation runs (RECONCILE_RETENTION_DAYS,
90) and synced documents (PUSH_RETENTION_DAYS, 365). The worker also runs it on PRUNE_CRON
(daily by default). Safe to run at any time, and again.

Options:
  --dry-run   count what would go; change nothing
  --json      one JSON object per step instead of a table`;

function table(results: PruneResult[], dryRun: boolean): string {
  const rows = [
    ['STEP', 'KEPT', 'OLDER THAN', dryRun ? 'WOULD GO' : 'PRUNED'],
    ...results.map((r) => [
      r.step,
      `${r.days} d`,
      r.cutoff.toISOString(),
      Object.entries(r.counts)
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r
        .map((v, c) => v.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export const pruneCommand: Command = {
  name: 'prune',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values } = parse(args, { 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } });
      const config = configFrom(ctx);
      if (!config) return 1;
      const dryRun = values['dry-run'] === true;
      const results = await withServiceDeps(config, (deps) =>
        runPrune({ ...deps, logger: silentLogger() }, { dryRun }),
      );
      if (values.json) {
        for (const r of results)
          ctx.stdout.write(`${JSON.stringify({ ...r, cutoff: r.cutoff.toISOString(), dryRun })}\n`);
      } else {
        ctx.stdout.write(`${table(results, dryRun)}\n`);
      }
      return 0;
    }),
};
