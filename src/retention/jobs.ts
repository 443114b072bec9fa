import { Counter } from 'prom-client';
import type { JobRegistration } from '../deps.js';
import { runPrune } from './prune.js';

/** The daily prune's queue (one job per cron tick, across every process). */
export const PRUNE_QUEUE = 'retention-prune';

/** The daily prune (`PRUNE_CRON`; `off` removes the schedule so no process keeps sending ticks). */
export const retentionJobs: JobRegistration = {
  name: 'retention',
  register: async (deps) => {
    const pruned =
      (deps.metrics.getSingleMetric('wms_sync_pruned_rows_total') as Counter<'step' | 'what'> | undefined) ??
      new Counter({
        name: 'wms_sync_pruned_rows_total',
        help: 'Rows pruned by retention, per step and kind',
        labelNames: ['step', 'what'],
        registers: [deps.metrics],
      });
    await deps.queue.createQueue(PRUNE_QUEUE, {
      retryLimit: 2,
      retryDelay: 300,
      retryBackoff: true,
      expireInSeconds: 6 * 60 * 60,
    });
    if (deps.config.retention.cron) await deps.queue.schedule(PRUNE_QUEUE, deps.config.retention.cron, {});
    else await deps.queue.unschedule(PRUNE_QUEUE);
    await deps.queue.work(
      PRUNE_QUEUE,
      { batchSize: 1, concurrency: 1, pollIntervalMs: deps.config.worker.pollIntervalMs },
      async () => {
        for (const r of await runPrune(deps))
          for (const [what, n] of Object.entries(r.counts)) pruned.inc({ step: r.step, what }, n);
      },
    );
  },
};
