import { backoffDelayMs } from '../../lib/backoff.js';
import { errorMessage } from '../../lib/errors.js';
import type { Queue } from '../../queue/types.js';
import type { PushRecord } from '../../store/index.js';
import type { PushContext } from './context.js';
import type { PushFailure } from './failure.js';
import { PUSH_QUEUE, type PushJob } from './queue.js';

/**
 * A push that failed for a reason of our own (the store, a bug) shows it on its record: the error
 * now, and `failed` when the job has no retry left, so a record never stays `pending` with no job
 * behind it. Best effort: with the store down the note itself may fail (logged; the queue retries).
 */
export async function recordInternalFailure(
  ctx: PushContext,
  record: PushRecord,
  err: unknown,
  final: boolean,
): Promise<void> {
  const at = ctx.clock.now();
  const failure: PushFailure = {
    kind: 'internal',
    message: final ? `gave up after the push job's last attempt: ${errorMessage(err)}` : errorMessage(err),
    attempts: record.attempts,
    at: at.toISOString(),
  };
  try {
    if (final) {
      await ctx.store.pushes.markFailed(record.id, failure, at, record.payloadHash);
      ctx.alerts?.raise(
        record.connection,
        'push_failed',
        `${record.entity} ${record.externalCode}: ${failure.message}`,
      );
    } else await ctx.store.pushes.noteError(record.id, failure, at);
  } catch (noted) {
    ctx.logger.error(
      { recordId: record.id, err: errorMessage(err), noteErr: errorMessage(noted) },
      'could not record a push failure',
    );
  }
}

/** How often, and how patiently, a dead job's record is marked failed while the store does not answer. */
const MARK_RETRIES = 8;
const MARK_BACKOFF = { baseMs: 1000, maxMs: 60_000 };

/**
 * A push job that died without reaching the handler's own last-attempt path (its worker stopped
 * and the lease ran out on the last attempt) leaves its record `failed` with the reason, if the
 * record is still pending. The record's lease is shorter than the job's, so no push of it is
 * running any more.
 */
export async function failRecordOfDeadJob(ctx: PushContext, jobId: string, error: Error): Promise<void> {
  for (let retry = 0; ; retry++) {
    try {
      const job = await ctx.queue.getJob<PushJob>(PUSH_QUEUE, jobId);
      const record = job ? await ctx.store.pushes.getById(job.data.recordId) : undefined;
      if (record?.state !== 'pending') return;
      const at = ctx.clock.now();
      const failure: PushFailure = {
        kind: 'job',
        message: `the push job died: ${error.message}`,
        attempts: record.attempts,
        at: at.toISOString(),
      };
      await ctx.store.pushes.markFailed(record.id, failure, at, record.payloadHash);
      ctx.alerts?.raise(
        record.connection,
        'push_failed',
        `${record.entity} ${record.externalCode}: ${failure.message}`,
      );
      ctx.logger.warn({ recordId: record.id, jobId }, 'push job died: record marked failed');
      return;
    } catch (err) {
      if (retry + 1 >= MARK_RETRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, backoffDelayMs(MARK_BACKOFF, retry)).unref());
    }
  }
}

/** Listens for dead push jobs on the queue (both adapters report them with `dead: true`). */
export function watchDeadPushJobs(ctx: PushContext, queue: Queue = ctx.queue): void {
  queue.on('failed', (e) => {
    if (e.name !== PUSH_QUEUE || !e.dead) return;
    failRecordOfDeadJob(ctx, e.id, e.error).catch((err: unknown) =>
      ctx.logger.error({ jobId: e.id, err: errorMessage(err) }, 'could not mark the record of a dead push job failed'),
    );
  });
}
