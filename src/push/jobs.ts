import type { JobRegistration } from '../deps.js';
import { pushContext } from './job/context.js';
import { handlePush } from './job/handle.js';
import { watchDeadPushJobs } from './job/internal-failure.js';
import { PUSH_QUEUE, type PushJob } from './job/queue.js';

/**
 * The push room's jobs: one queue of pushes. Retries of WMS errors are the handler's (own
 * backoff, Retry-After); the queue's retries only cover failures of our own (the store down).
 */
export const wmsPushJobs: JobRegistration = {
  name: 'pushes',
  register: async (deps) => {
    const ctx = pushContext(deps);
    await deps.queue.createQueue(PUSH_QUEUE, {
      retryLimit: 10,
      retryDelay: 1,
      retryBackoff: true,
      expireInSeconds: Math.ceil((ctx.leaseMs + 60_000) / 1000),
    });
    watchDeadPushJobs(ctx);
    const { batchSize, concurrency, pollIntervalMs } = deps.config.worker;
    await deps.queue.work<PushJob>(PUSH_QUEUE, { batchSize, concurrency, pollIntervalMs }, async (job) => {
      await deps.tracing.span(
        'wms.push',
        {
          kind: 'consumer',
          parent: job.data.traceparent,
          attributes: { 'wms_sync.push_record_id': job.data.recordId },
        },
        () => handlePush(ctx, job.data, { final: job.retryCount >= job.retryLimit }),
      );
    });
  },
};
