import type { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { createLogger } from '../lib/logger.js';
import { openDeps } from '../main.js';
import { getRun } from '../reconcile/get-run.js';
import { startRunWorker } from '../reconcile/jobs.js';
import { requestRun } from '../reconcile/request.js';
import type { ReconciliationRunView } from '../reconcile/view.js';
import type { Store } from '../store/index.js';
import { configFrom, parse, withUsage } from './args.js';
import { pickConnection } from './connection-arg.js';
import { ProgressLine } from './progress.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync reconcile [--connection NAME] [--json]

Runs a stock reconciliation of one connection now, in this process, against its WMS: the stock
of every product (endpoint 7, in batches) is compared with what wms-sync learnt from webhooks;
each confirmed drift is sent to the ERP feed as stock.drift. Progress goes to stderr, the
findings (drift, products the WMS does not know, rows still moving) to stdout as a table.
The run is queued like any other: if a run of the connection is going on elsewhere, this one
starts when it ends (never two at once). RECONCILE_* settings apply (docs/reconciliation.md).

Exit 0 when the run completed (with or without drift), 1 when it ended partial or failed.

Options:
  --connection NAME   the connection (default: the only one configured)
  --json              print the run with all its items as JSON (as GET /erp/v1/reconciliations/{id})`;

const FINISHED = new Set(['completed', 'partial', 'failed']);

async function allItems(store: Store, connection: string, id: number): Promise<ReconciliationRunView | undefined> {
  const first = await getRun(store, { connection, id, itemsLimit: 1000 });
  if (!first) return undefined;
  for (let after = first.nextItemsAfter; after !== null; ) {
    const page = (await getRun(store, { connection, id, itemsAfter: after, itemsLimit: 1000 }))!;
    first.items.push(...page.items);
    after = page.nextItemsAfter;
  }
  return { ...first, nextItemsAfter: null };
}

const num = (n: number | null) => (n === null ? '-' : String(n));

export function printFindings(out: Writable, run: ReconciliationRunView): void {
  if (run.items.length > 0) {
    const rows = [
      ['PRODUCT', 'LOT', 'STATUS', 'WMS', 'EXPECTED', 'DELTA'],
      ...run.items.map((i) => [
        i.productExternalCode,
        i.lotCode ?? '-',
        i.status,
        num(i.wms?.existence ?? null),
        num(i.expected?.existence ?? null),
        num(i.delta),
      ]),
    ];
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const r of rows)
      out.write(
        `${r
          .map((v, c) => (c >= 3 ? v.padStart(widths[c]!) : v.padEnd(widths[c]!)))
          .join('  ')
          .trimEnd()}\n`,
      );
  }
  const seconds =
    run.startedAt && run.finishedAt
      ? ((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000).toFixed(1)
      : '?';
  out.write(
    `run ${run.id} ${run.status} in ${seconds} s: ${run.productsChecked} products, ${run.rowsChecked} rows checked, ` +
      `${run.driftCount} drift, ${run.notFoundCount} not found, ${run.unsettledCount} unsettled, ${run.requests} WMS requests\n`,
  );
  if (run.reason) out.write(`reason: ${run.reason}\n`);
}

export const reconcileCommand: Command = {
  name: 'reconcile',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values } = parse(args, { connection: { type: 'string' }, json: { type: 'boolean' } });
      const config = configFrom(ctx);
      if (!config) return 1;
      const connection = pickConnection(config, values.connection).name;

      const logger = createLogger({ level: ctx.env.LOG_LEVEL ? config.logLevel : 'error' });
      const deps = await openDeps(config, { logger });
      const abort = new AbortController();
      let interrupted = false;
      void ctx.stopSignal.then(() => {
        interrupted = true;
        abort.abort();
        // Stock requests in flight are let go too: the run stops now, not after the WMS timeout.
        deps.stopJobs();
      });
      try {
        await startRunWorker(deps, connection, { signal: abort.signal });
        const { run, created } = await requestRun(deps, connection, 'cli');
        if (!created) ctx.stderr.write(`run ${run.id} of ${connection} was already waiting to start: following it\n`);
        const bar = new ProgressLine(ctx.stderr);
        let view: ReconciliationRunView | undefined;
        for (;;) {
          view = await getRun(deps.store, { connection, id: run.id, itemsLimit: 1 });
          if (!view || FINISHED.has(view.status)) break;
          const waiting = view.status === 'queued' ? ' (waiting for the connection’s running run)' : '';
          bar.update(
            view.productsChecked,
            view.productsTotal ?? 0,
            `rows ${view.rowsChecked} drift ${view.driftCount}${waiting}`,
          );
          if (interrupted) break;
          await delay(200);
        }
        bar.end();
        if (interrupted) {
          ctx.stderr.write(
            `interrupted: run ${run.id} starts again with the next worker of ${connection} (or the next wms-sync reconcile)\n`,
          );
          return 1;
        }
        const final = (await allItems(deps.store, connection, run.id))!;
        if (values.json) ctx.stdout.write(`${JSON.stringify(final, null, 2)}\n`);
        else printFindings(ctx.stdout, final);
        return final.status === 'completed' ? 0 : 1;
      } finally {
        await deps.queue.stop({ graceMs: config.shutdownGraceMs });
        // Gives this process's share of a shared WMS limit back before the store goes.
        await deps.wms.close();
        await deps.store.close();
        logger.flush();
      }
    }),
};
