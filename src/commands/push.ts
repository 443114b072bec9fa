import { createLogger } from '../lib/logger.js';
import { openDeps } from '../main.js';
import { failedOf, followSync, loadItems, type StateCounts } from '../push/bulk.js';
import { FileFormatError, readItems } from '../push/files.js';
import { wmsPushJobs } from '../push/jobs.js';
import { startWorkers } from '../worker.js';
import { configFrom, parse, UsageError, withUsage } from './args.js';
import { intakeKindArg, pickConnection } from './connection-arg.js';
import { ProgressLine } from './progress.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync push <products|delivery-points|documents> FILE.json|FILE.csv [options]

Bulk-loads ERP data into the WMS through the same path as the ERP API: each item is validated
with the spec's DTO, stored, and pushed by a worker running in this process (and by any other
worker on the same database). Unchanged items are not pushed again. Shows a progress bar, then a
summary; exits 1 when an item is invalid or failed.

JSON: an array of DTOs, or {"items": [...]}. CSV: headers are field paths (description,
barcodes.0.code, lots.0.expirationDate); for documents each row is one line (lines.lineNumber,
lines.quantity, lines.productExternalCode, ...) and rows sharing an externalCode make one document.
Push products and delivery points before the documents that use them (documents wait for them).

Options:
  --connection NAME   the connection to push to (default: the only one configured)
  --queue-only        store and queue, do not wait (a running worker pushes them)
  --timeout SECONDS   stop waiting after this long (default: wait until every item is done)`;

export const pushCommand: Command = {
  name: 'push',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values, positionals } = parse(
        args,
        { connection: { type: 'string' }, 'queue-only': { type: 'boolean' }, timeout: { type: 'string' } },
        true,
      );
      const kind = intakeKindArg(positionals[0]);
      const file = positionals[1];
      if (!file || positionals.length > 2) throw new UsageError('expected one FILE.json or FILE.csv');
      const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
      if (timeout !== undefined && !(timeout > 0))
        throw new UsageError('--timeout expects a positive number of seconds');
      const config = configFrom(ctx);
      if (!config) return 1;
      const connection = pickConnection(config, values.connection);
      let items;
      try {
        items = await readItems(kind, file);
      } catch (err) {
        if (err instanceof FileFormatError || (err as NodeJS.ErrnoException).code === 'ENOENT') {
          ctx.stderr.write(`wms-sync push: ${file}: ${(err as Error).message}\n`);
          return 1;
        }
        throw err;
      }

      const logger = createLogger({ level: ctx.env.LOG_LEVEL ? config.logLevel : 'error' });
      const deps = await openDeps(config, { logger });
      try {
        if (!values['queue-only']) await startWorkers(deps, [wmsPushJobs]);
        const started = Date.now();
        const load = await loadItems(deps, connection.name, kind, items);
        ctx.stdout.write(
          `${kind}: ${load.read} read, ${load.invalid.length} invalid, ${load.queued} queued, ${load.unchanged} unchanged\n`,
        );
        for (const bad of load.invalid.slice(0, 20)) {
          ctx.stdout.write(
            `  invalid ${bad.source}${bad.externalCode ? ` (${bad.externalCode})` : ''}: ${bad.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}\n`,
          );
        }
        if (values['queue-only']) return load.invalid.length > 0 ? 1 : 0;

        const bar = new ProgressLine(ctx.stdout);
        const total = load.recordIds.length;
        const counts: StateCounts = await followSync(deps, load.recordIds, {
          intervalMs: 200,
          stop: ctx.stopSignal,
          ...(timeout !== undefined ? { deadline: started + timeout * 1000 } : {}),
          onTick: (c) => {
            const secs = (Date.now() - started) / 1000;
            bar.update(
              c.synced + c.failed,
              total,
              `synced ${c.synced} failed ${c.failed} pending ${c.pending} (${Math.round((c.synced + c.failed) / Math.max(secs, 0.001))}/s)`,
            );
          },
        });
        bar.end();
        const secs = (Date.now() - started) / 1000;
        ctx.stdout.write(
          `done in ${secs.toFixed(1)} s: ${counts.synced} synced, ${counts.failed} failed, ${counts.pending} still pending` +
            ` (${Math.round((counts.synced + counts.failed) / Math.max(secs, 0.001))} items/s)\n`,
        );
        for (const r of await failedOf(deps, connection.name, kind, load.recordIds, 20)) {
          ctx.stdout.write(
            `  failed ${r.externalCode}: ${String((r.lastError as { message?: unknown } | null)?.message ?? 'unknown error')}\n`,
          );
        }
        if (counts.failed > 0)
          ctx.stdout.write(`retry after fixing the data: wms-sync pushes retry ${kind} CODE... (or --failed)\n`);
        return load.invalid.length > 0 || counts.failed > 0 || counts.pending > 0 ? 1 : 0;
      } finally {
        await deps.queue.stop({ graceMs: config.shutdownGraceMs });
        // Gives this process's share of a shared WMS limit back before the store goes.
        await deps.wms.close();
        await deps.store.close();
        logger.flush();
      }
    }),
};
