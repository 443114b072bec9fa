import type { ServiceDeps } from '../deps.js';
import { errorMessage } from '../lib/errors.js';
import type { Job } from '../queue/types.js';
import type { JobRegistration } from '../worker.js';
import { inboundMetrics, type InboundMetrics } from './metrics.js';
import { processEvent } from './process-event.js';
import { INBOUND_QUEUE, processJobOptions, type ProcessJobData } from './queue.js';

/**
 * Runs one processing job. A failed attempt keeps its error on the event (still `received`, to be
 * retried); the last one marks the event `failed` with the error, for the operator to see and retry.
 */
export async function runProcessJob(deps: ServiceDeps, metrics: InboundMetrics, job: Job<ProcessJobData>): Promise<void> {
  try {
    await processEvent({ store: deps.store, clock: deps.clock, metrics }, job.data.eventId);
  } catch (err) {
    const final = job.retryCount >= job.retryLimit;
    const message = errorMessage(err);
    const event = await deps.store.inbox.get(job.data.eventId).catch(() => undefined);
    metrics.processingFailures.inc({ connection: event?.connection ?? 'unknown', kind: event?.kind ?? 'unknown', final: String(final) });
    await (final ? deps.store.inbox.markFailed(job.data.eventId, message, deps.clock.now()) : deps.store.inbox.noteError(job.data.eventId, message, deps.clock.now())).catch(
      (e: unknown) => deps.logger.error({ err: errorMessage(e), eventId: job.data.eventId }, 'could not record a processing failure'),
    );
    (final ? deps.logger.error : deps.logger.warn).call(deps.logger, { eventId: job.data.eventId, attempt: job.retryCount + 1, err: message, final }, 'event processing failed');
    throw err;
  }
}

/**
 * A job whose worker died on its last attempt (lease expired) never reached the catch above:
 * mark its event failed here, unless it was processed after all.
 */
async function onDeadJob(deps: ServiceDeps, id: string, error: Error): Promise<void> {
  const job = await deps.queue.getJob<ProcessJobData>(INBOUND_QUEUE, id);
  if (!job) return;
  const event = await deps.store.inbox.get(job.data.eventId);
  if (event?.status === 'received') await deps.store.inbox.markFailed(event.id, error.message, deps.clock.now());
}

export const inboundJobs: JobRegistration = {
  name: 'inbound',
  register: async (deps) => {
    const metrics = inboundMetrics(deps.metrics);
    const { retryLimit, retryDelay, retryBackoff, expireInSeconds } = processJobOptions(deps.config);
    await deps.queue.createQueue(INBOUND_QUEUE, { retryLimit, retryDelay, retryBackoff, expireInSeconds });
    deps.queue.on('failed', (e) => {
      if (e.name !== INBOUND_QUEUE || !e.dead) return;
      onDeadJob(deps, e.id, e.error).catch((err: unknown) => deps.logger.error({ err: errorMessage(err), jobId: e.id }, 'could not mark the event of a dead job'));
    });
    await deps.queue.work<ProcessJobData>(
      INBOUND_QUEUE,
      { batchSize: deps.config.worker.batchSize, concurrency: deps.config.worker.concurrency, pollIntervalMs: deps.config.worker.pollIntervalMs },
      (job) => runProcessJob(deps, metrics, job),
    );
  },
};
