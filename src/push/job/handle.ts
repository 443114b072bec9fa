import { randomUUID } from 'node:crypto';
import type { PushRecord } from '../../store/index.js';
import type { PushContext } from './context.js';
import { recordInternalFailure } from './internal-failure.js';
import { type Outcome, type PushLease, processRecord } from './process.js';
import { PUSH_QUEUE, type PushJob } from './queue.js';

/** Rounds one job makes when new payloads keep arriving during its pushes; the rest go to their own jobs. */
const MAX_ROUNDS = 3;

/**
 * Runs a push job. The record's lease makes pushes of one record strictly one after another, so
 * versions reach the WMS in order. A job that finds the lease held leaves (and comes back a little
 * later): the holder looks at the record again after giving the lease back, and goes on when a
 * newer payload arrived or a reference it waited for was synced meanwhile.
 */
export async function handlePush(
  ctx: PushContext,
  job: PushJob,
  attempt: { final: boolean } = { final: false },
): Promise<Outcome[]> {
  const owner = randomUUID();
  const outcomes: Outcome[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = ctx.clock.now();
    const record = await ctx.store.pushes.claim(job.recordId, owner, new Date(now.getTime() + ctx.leaseMs), now);
    if (!record) {
      await comeBackAfterLease(ctx, job.recordId);
      return outcomes;
    }
    let outcome: Outcome;
    let after;
    const lease: PushLease = { owner, released: false };
    try {
      outcome = await processRecord(ctx, record, round === 0 ? job : { recordId: job.recordId }, lease);
    } catch (err) {
      if (!ctx.stopping?.aborted) {
        await recordInternalFailure(ctx, record, err, attempt.final);
        throw err;
      }
      // Stopping: the push was let go mid-call. A fresh job takes it up in the next process (or
      // another one now); this one ends, so no retry is spent and no job dies of a shutdown.
      after = await release(ctx, job.recordId, lease);
      await ctx.queue.send<PushJob>(PUSH_QUEUE, {
        recordId: job.recordId,
        ...(job.retry ? { retry: job.retry } : {}),
        ...(job.traceparent ? { traceparent: job.traceparent } : {}),
      });
      return outcomes;
    } finally {
      after ??= await release(ctx, job.recordId, lease);
    }
    outcomes.push(outcome);
    ctx.pushes.inc({ entity: record.entity, outcome: outcome.kind });
    log(ctx, record, outcome);
    if (outcome.kind === 'retrying') {
      await ctx.queue.send<PushJob>(PUSH_QUEUE, outcome.next, { startAfter: new Date(Date.now() + outcome.delayMs) });
      return outcomes;
    }
    if (outcome.kind === 'waiting' && outcome.deadline) {
      await ctx.queue.send<PushJob>(PUSH_QUEUE, outcome.deadline.job, {
        startAfter: new Date(Date.now() + outcome.deadline.delayMs),
      });
    }
    const newer = after !== undefined && after.state === 'pending' && after.payloadHash !== record.payloadHash;
    if (!newer && !(outcome.kind === 'waiting' && (await wokenMeanwhile(ctx, job.recordId, outcome.missing.length))))
      return outcomes;
  }
  // Still changing: hand the newest payload to a job of its own rather than hold this worker.
  await ctx.queue.send<PushJob>(PUSH_QUEUE, { recordId: job.recordId });
  return outcomes;
}

/** Gives the lease back, unless the push's last write did (the record as it was then). */
async function release(ctx: PushContext, recordId: number, lease: PushLease) {
  if (lease.released) return lease.after;
  lease.released = true;
  lease.after = await ctx.store.pushes.release(recordId, lease.owner);
  return lease.after;
}

function log(ctx: PushContext, record: PushRecord, outcome: Outcome): void {
  const line = {
    connection: record.connection,
    entity: record.entity,
    externalCode: record.externalCode,
    outcome: outcome.kind,
  };
  if (outcome.kind === 'failed') {
    ctx.logger.warn({ ...line, error: outcome.failure.message }, 'push failed');
    ctx.alerts?.raise(
      record.connection,
      'push_failed',
      `${record.entity} ${record.externalCode}: ${outcome.failure.message}`,
    );
  } else if (outcome.kind === 'retrying')
    ctx.logger.info({ ...line, delayMs: outcome.delayMs, error: outcome.error.message }, 'push will be retried');
  else ctx.logger.debug(line, 'push');
}

/** A reference this record waited for was synced while we held its lease (its wake-up found the lease taken). */
async function wokenMeanwhile(ctx: PushContext, recordId: number, waitedFor: number): Promise<boolean> {
  return (await ctx.store.pushes.waitsOf(recordId)).length < waitedFor;
}

/** How soon a job that found the lease held looks again (sooner if the lease runs out sooner). */
const COME_BACK_MS = 2000;

/**
 * The lease is held: normally its holder finishes and looks again itself, and this job's successor
 * finds nothing to do. It also covers what the holder cannot see (a retry asked for during its
 * push), and a holder that died mid-push: the lease runs out and a successor takes over.
 */
async function comeBackAfterLease(ctx: PushContext, recordId: number): Promise<void> {
  const held = await ctx.store.pushes.getById(recordId);
  if (!held?.lockedUntil || held.state !== 'pending') return;
  const waitMs = Math.min(COME_BACK_MS, Math.max(0, held.lockedUntil.getTime() - ctx.clock.nowMs())) + 100;
  await ctx.queue.send<PushJob>(PUSH_QUEUE, { recordId }, { startAfter: new Date(Date.now() + waitMs) });
}
