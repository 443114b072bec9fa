import type { JobRegistration, ServiceDeps } from '../deps.js';
import { errorMessage } from '../lib/errors.js';
import type { Job, Queue } from '../queue/types.js';
import { countFinishedRun, reconcileMetrics } from './metrics.js';
import { createRunQueue, isRunQueue, type RunJobData, runQueueOf, SCHEDULE_QUEUE } from './queue.js';
import { requestRun } from './request.js';
import { resumeInterrupted } from './resume.js';
import { executeRun, type RunControls } from './run.js';

type Deps = Pick<
  ServiceDeps,
  'store' | 'queue' | 'clock' | 'logger' | 'wms' | 'connections' | 'config' | 'metrics' | 'tracing' | 'alerts'
>;

/** Runs one run job; a failure of our own puts the run back in line, or fails it on the last attempt. */
async function handleRun(deps: Deps, job: Job<RunJobData>, controls: RunControls): Promise<void> {
  const metrics = reconcileMetrics(deps.metrics);
  const counted: RunControls = { ...controls, onFinished: (run) => countFinishedRun(metrics, run) };
  try {
    const run = await executeRun({ ...deps, config: deps.config.reconcile }, job.data.runId, counted);
    if (run?.status === 'interrupted') await resumeInterrupted(deps, run);
  } catch (err) {
    const reason = `attempt ${job.retryCount + 1} failed: ${errorMessage(err)}`;
    const at = deps.clock.now();
    if (job.retryCount >= job.retryLimit) {
      const failed = await deps.store.reconciliation.finishRun(job.data.runId, { status: 'failed', reason, at });
      if (failed) {
        countFinishedRun(metrics, failed);
        deps.alerts?.raise(failed.connection, 'reconcile_failed', `run ${failed.id} failed: ${reason}`);
      }
    } else await deps.store.reconciliation.requeueRun(job.data.runId, reason, at);
    throw err;
  }
}

/**
 * The worker of one connection's runs. One loop: the queue never lets two runs of a connection
 * run at once anyway. The CLI uses it too, with its own stop signal.
 */
export async function startRunWorker(deps: Deps, connection: string, controls: RunControls = {}): Promise<void> {
  await createRunQueue(deps.queue, connection);
  await deps.queue.work<RunJobData>(
    runQueueOf(connection),
    { batchSize: 1, concurrency: 1, pollIntervalMs: deps.config.worker.pollIntervalMs },
    (job) => handleRun(deps, job, controls),
  );
}

/** One run asked for per connection, at each cron tick. */
export async function requestScheduledRuns(
  deps: Pick<ServiceDeps, 'store' | 'queue' | 'clock' | 'connections' | 'logger'>,
): Promise<void> {
  for (const connection of deps.connections.all()) {
    const { run, created } = await requestRun(deps, connection.name, 'schedule');
    deps.logger.debug({ connection: connection.name, runId: run.id, created }, 'scheduled reconciliation');
  }
}

/** Sets the cron of scheduled runs, or removes it (`null`: RECONCILE_CRON=off) so no process keeps sending ticks. */
export async function applySchedule(queue: Queue, cron: string | null): Promise<void> {
  await queue.createQueue(SCHEDULE_QUEUE, { retryLimit: 3, retryDelay: 10, retryBackoff: true });
  if (cron) await queue.schedule(SCHEDULE_QUEUE, cron, {});
  else await queue.unschedule(SCHEDULE_QUEUE);
}

/** A run job whose worker died on its last attempt never reached `handleRun`: fail its run here. */
async function onDeadJob(deps: Deps, name: string, id: string, error: Error): Promise<void> {
  const job = await deps.queue.getJob<RunJobData>(name, id);
  if (!job) return;
  const run = await deps.store.reconciliation.finishRun(job.data.runId, {
    status: 'failed',
    reason: error.message,
    at: deps.clock.now(),
  });
  if (run) deps.alerts?.raise(run.connection, 'reconcile_failed', `run ${run.id} failed: ${error.message}`);
}

/**
 * Stock reconciliation's jobs: a run queue and worker per connection, and the cron
 * (`RECONCILE_CRON`, or none when it is `off`) that asks for a run of every connection.
 */
export const reconcileJobs: JobRegistration = {
  name: 'reconcile',
  register: async (deps) => {
    reconcileMetrics(deps.metrics, deps.connections.all());
    // Runs stop at a safe point when the process is asked to stop (deps.stopping).
    for (const connection of deps.connections.all())
      await startRunWorker(deps, connection.name, { signal: deps.stopping });
    deps.queue.on('failed', (e) => {
      if (!isRunQueue(e.name) || !e.dead) return;
      onDeadJob(deps, e.name, e.id, e.error).catch((err: unknown) =>
        deps.logger.error({ err: errorMessage(err), jobId: e.id }, 'could not fail the run of a dead job'),
      );
    });
    await applySchedule(deps.queue, deps.config.reconcile.cron);
    await deps.queue.work(
      SCHEDULE_QUEUE,
      { batchSize: 1, concurrency: 1, pollIntervalMs: deps.config.worker.pollIntervalMs },
      () => requestScheduledRuns(deps),
    );
  },
};
