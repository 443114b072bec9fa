import type { JobRegistration, ServiceDeps } from '../deps.js';
import { errorMessage } from '../lib/errors.js';
import { eventFields } from '../lib/event-log.js';
import type { Job } from '../queue/types.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import { type InboundMetrics, inboundMetrics } from './metrics.js';
import { createEventProcessor, type EventProcessor } from './processor.js';
import { INBOUND_QUEUE, type ProcessJobData, processJobOptions } from './queue.js';

/**
 * Runs one processing job: its events go into the process's batches (several events per
 * transaction, shared with the jobs running beside it: `processor.ts`), each event with its own
 * outcome. A failed attempt keeps its error on the event (still `received`, to
 * be retried with the job); on the job's last attempt the event is marked `failed` with its error,
 * for the operator to see and retry. Events already processed are skipped when the job runs
 * again, so only the failed ones are retried.
 */
export async function runProcessJob(
  deps: ServiceDeps,
  metrics: InboundMetrics,
  processor: EventProcessor,
  job: Job<ProcessJobData>,
): Promise<void> {
  const final = job.retryCount >= job.retryLimit;
  const failures: string[] = [];
  let storeFault: Error | undefined;
  const outcomes = await processor(job.data.eventIds);
  for (const outcome of outcomes) {
    if (outcome.ok) continue;
    const message = errorMessage(outcome.error);
    failures.push(`event ${outcome.eventId}: ${message}`);
    // The store failed, not the event: nothing to write (it would fail too), and the job runs again
    // without spending an attempt (worker-loop.ts), so the event is never marked failed for it.
    if (isStoreUnavailable(outcome.error)) storeFault ??= outcome.error;
    else await recordFailure(deps, metrics, outcome.eventId, message, final, job.retryCount + 1);
  }
  if (failures.length > 0)
    throw new Error(
      `${failures.length} of ${job.data.eventIds.length} events failed: ${failures.join('; ')}`,
      storeFault ? { cause: storeFault } : undefined,
    );
}

async function recordFailure(
  deps: ServiceDeps,
  metrics: InboundMetrics,
  eventId: number,
  message: string,
  final: boolean,
  attempt: number,
): Promise<void> {
  const at = deps.clock.now();
  let event: Awaited<ReturnType<typeof deps.store.inbox.get>>;
  try {
    event = await deps.store.inbox.get(eventId);
    metrics.processingFailures.inc({
      connection: event?.connection ?? 'unknown',
      kind: event?.kind ?? 'unknown',
      final: String(final),
    });
    // One transaction: whoever sees the event failed sees its attempt in the history too.
    await deps.store.transaction(async (tx) => {
      await (final ? tx.inbox.markFailed(eventId, message, at) : tx.inbox.noteError(eventId, message, at));
      if (event)
        await tx.inbox.recordAttemptOutcome({
          eventId,
          connection: event.connection,
          outcome: final ? 'failed' : 'error',
          error: message,
          at,
        });
    });
  } catch (err) {
    deps.logger.error({ err: errorMessage(err), eventId }, 'could not record a processing failure');
  }
  if (final && event)
    deps.alerts?.raise(
      event.connection,
      'event_failed',
      `event ${eventId} (${event.kind} ${event.businessCode ?? ''}): ${message}`,
    );
  (final ? deps.logger.error : deps.logger.warn).call(
    deps.logger,
    { ...eventFields(eventId, event?.connection ?? 'unknown'), attempt, err: message, final },
    'event processing failed',
  );
}

/**
 * A job whose worker died on its last attempt (lease expired) never reached the code above: mark
 * its events failed here, except those processed after all.
 */
async function onDeadJob(deps: ServiceDeps, id: string, error: Error): Promise<void> {
  const job = await deps.queue.getJob<ProcessJobData>(INBOUND_QUEUE, id);
  for (const eventId of job?.data.eventIds ?? []) {
    const event = await deps.store.inbox.get(eventId);
    if (event?.status !== 'received') continue;
    await deps.store.inbox.markFailed(event.id, error.message, deps.clock.now());
    deps.alerts?.raise(event.connection, 'event_failed', `event ${event.id} (${event.kind}): ${error.message}`);
  }
}

export const inboundJobs: JobRegistration = {
  name: 'inbound',
  register: async (deps) => {
    const metrics = inboundMetrics(deps.metrics);
    const processor = createEventProcessor({
      store: deps.store,
      clock: deps.clock,
      metrics,
      tracing: deps.tracing,
      logger: deps.logger.child({ room: 'inbound' }),
      ...(deps.alerts ? { alerts: deps.alerts } : {}),
    });
    const { retryLimit, retryDelay, retryBackoff, expireInSeconds } = processJobOptions(deps.config);
    await deps.queue.createQueue(INBOUND_QUEUE, { retryLimit, retryDelay, retryBackoff, expireInSeconds });
    deps.queue.on('failed', (e) => {
      if (e.name !== INBOUND_QUEUE || !e.dead) return;
      onDeadJob(deps, e.id, e.error).catch((err: unknown) =>
        deps.logger.error({ err: errorMessage(err), jobId: e.id }, 'could not mark the events of a dead job'),
      );
    });
    await deps.queue.work<ProcessJobData>(
      INBOUND_QUEUE,
      {
        batchSize: deps.config.worker.batchSize,
        concurrency: deps.config.worker.concurrency,
        pollIntervalMs: deps.config.worker.pollIntervalMs,
      },
      (job) => runProcessJob(deps, metrics, processor, job),
    );
  },
};
