import { backoffDelayMs } from '../../lib/backoff.js';
import type { PushRecord } from '../../store/index.js';
import { type WmsClient, WmsError } from '../../wms-client/index.js';
import type { PushContext } from './context.js';
import { type PushFailure, type PushStep, wmsFailure } from './failure.js';
import { PUSH_QUEUE, type PushJob, pushJobs } from './queue.js';
import { describeMissing, type MissingRef, missingReferences, referencesOf } from './references.js';
import { sendRecord } from './send.js';

export type Outcome =
  | { kind: 'skipped'; why: 'not-pending' | 'unchanged' }
  | { kind: 'synced' }
  | { kind: 'waiting'; missing: MissingRef[]; deadline?: { job: PushJob; delayMs: number } }
  | { kind: 'retrying'; delayMs: number; error: WmsError; next: PushJob }
  | { kind: 'failed'; failure: PushFailure };

/**
 * The push lease a job holds on its record. A push that ends synced gives it back with the same
 * write (`markSynced` with the owner) and keeps here the record as it is after; otherwise the job
 * gives it back itself (`handlePush`).
 */
export interface PushLease {
  owner: string;
  released: boolean;
  after?: PushRecord | undefined;
}

/**
 * One decision for a record whose push lease this job holds: nothing to do, wait for its
 * references, or push it and record what the WMS said. A WMS error in any step (the look-up of a
 * reference, the push) is recorded on the record, counted as an attempt, and retried or failed.
 * Errors that are not the WMS's (the store down, a bug) propagate: the job records them (see
 * `handlePush`) and the queue retries it.
 */
export async function processRecord(
  ctx: PushContext,
  record: PushRecord,
  job: PushJob,
  lease: PushLease,
): Promise<Outcome> {
  const now = ctx.clock.now();
  if (record.state !== 'pending') return { kind: 'skipped', why: 'not-pending' };
  if (record.payloadHash === record.syncedHash) {
    // The WMS already holds this payload (it was synced, changed, and changed back): no call.
    await markSyncedAndRelease(ctx, record, lease, now);
    return { kind: 'skipped', why: 'unchanged' };
  }
  const connection = ctx.connections.get(record.connection);
  if (!connection) {
    const failure: PushFailure = {
      kind: 'configuration',
      message: `connection "${record.connection}" is not configured`,
      at: now.toISOString(),
    };
    await ctx.store.pushes.markFailed(record.id, failure, now, record.payloadHash);
    return { kind: 'failed', failure };
  }
  const client = ctx.clients.get(connection);

  let step: PushStep = 'references';
  let attempt: number | undefined;
  try {
    const waiting = await awaitReferences(ctx, client, record, job);
    if (waiting) return waiting;
    step = 'push';
    attempt = await ctx.store.pushes.recordAttempt(record.id, now);
    await sendRecord(client, record, attempt);
  } catch (err) {
    if (!(err instanceof WmsError)) throw err;
    // The service is stopping and let the call go: not the WMS's failure. The job runs again.
    if (ctx.stopping?.aborted) throw new Error('push interrupted: the service is stopping');
    // A reference that could not be looked up is a failed attempt of this record too.
    attempt ??= await ctx.store.pushes.recordAttempt(record.id, ctx.clock.now());
    return failOrRetry(ctx, record, job, err, attempt, step);
  }
  await markSyncedAndRelease(ctx, record, lease, ctx.clock.now());
  await wakeWaiters(ctx, record);
  return { kind: 'synced' };
}

async function markSyncedAndRelease(ctx: PushContext, record: PushRecord, lease: PushLease, at: Date): Promise<void> {
  lease.after = await ctx.store.pushes.markSynced(record.id, record.payloadHash, at, lease.owner);
  lease.released = true;
}

async function failOrRetry(
  ctx: PushContext,
  record: PushRecord,
  job: PushJob,
  err: WmsError,
  attempts: number,
  step: PushStep,
): Promise<Outcome> {
  const now = ctx.clock.now();
  const retry = job.retry ?? 0;
  if (err.retryable && retry + 1 < ctx.settings.maxAttempts) {
    // Equal jitter: one record's retries never come at once, and still spread.
    const policy = { baseMs: ctx.settings.retryBaseMs, maxMs: ctx.settings.retryMaxMs, jitter: 'equal' } as const;
    const delayMs = backoffDelayMs(policy, retry, { retryAfterMs: err.retryAfterMs, random: ctx.random() });
    const nextAttemptAt = new Date(now.getTime() + delayMs).toISOString();
    await ctx.store.pushes.noteError(record.id, { ...wmsFailure(err, now, attempts, step), nextAttemptAt }, now);
    // Sent by the caller once the lease is given back, so the retry never finds it still held.
    return { kind: 'retrying', delayMs, error: err, next: { recordId: record.id, retry: retry + 1 } };
  }
  const failure = wmsFailure(err, now, attempts, step);
  // A record seen failed never still shows what it waited for.
  if (step === 'references') await ctx.store.pushes.setWaits(record.id, record.connection, [], now);
  await ctx.store.pushes.markFailed(record.id, failure, now, record.payloadHash);
  return { kind: 'failed', failure };
}

/**
 * Records that waited for this one can go now: each gets a job and checks all its references again.
 * The waits end and the jobs are queued in one transaction, so a failure in between never leaves a
 * waiter without its wake-up until its deadline.
 */
async function wakeWaiters(ctx: PushContext, record: PushRecord): Promise<void> {
  // Most pushes have no waiter: one read instead of a transaction. A waiter that registers after
  // this read looks at our record again after registering, and finds it synced (marked above).
  const target = { entity: record.entity, externalCode: record.externalCode };
  if (!(await ctx.store.pushes.hasWaiters(record.connection, target))) return;
  await ctx.store.transaction(async (tx) => {
    const waiters = await tx.pushes.releaseWaiters(record.connection, {
      entity: record.entity,
      externalCode: record.externalCode,
    });
    if (waiters.length > 0) await ctx.queue.sendMany<PushJob>(PUSH_QUEUE, pushJobs(waiters), { tx });
  });
}

/**
 * Documents wait for their products and delivery point, cancels for their document. The waits are
 * registered before the second look, and a reference marks itself synced before it wakes its
 * waiters, so one of the two always sees the other: no wake-up is lost. A wait that outlives
 * `dependencyTimeoutSeconds` fails the record with the reason.
 */
async function awaitReferences(
  ctx: PushContext,
  client: WmsClient,
  record: PushRecord,
  job: PushJob,
): Promise<Outcome | undefined> {
  const refs = referencesOf(record);
  if (refs.length === 0) return undefined;
  const now = ctx.clock.now();
  const first = await missingReferences(ctx.store, client, record.connection, refs);
  if (first.length === 0) {
    await ctx.store.pushes.setWaits(record.id, record.connection, [], now);
    return undefined;
  }
  let since = await ctx.store.pushes.setWaits(record.id, record.connection, first, now);
  const missing = await missingReferences(ctx.store, undefined, record.connection, first);
  if (missing.length === 0) {
    await ctx.store.pushes.setWaits(record.id, record.connection, [], now);
    return undefined;
  }
  if (missing.length < first.length)
    since = await ctx.store.pushes.setWaits(record.id, record.connection, missing, now);
  const startedMs = (since ?? now).getTime();
  const timeoutMs = ctx.settings.dependencyTimeoutSeconds * 1000;
  if (now.getTime() - startedMs >= timeoutMs) {
    const failure: PushFailure = {
      kind: 'dependencies',
      message: `gave up after waiting ${ctx.settings.dependencyTimeoutSeconds} s for ${describeMissing(missing)}`,
      waitingFor: missing.map(({ entity, externalCode, state }) => ({ entity, externalCode, state })),
      at: now.toISOString(),
    };
    // Waits first: a record seen failed never still shows what it waited for.
    await ctx.store.pushes.setWaits(record.id, record.connection, [], now);
    await ctx.store.pushes.markFailed(record.id, failure, now, record.payloadHash);
    return { kind: 'failed', failure };
  }
  // One deadline job per wait: sent when the wait begins, or again when an early one finds it moved.
  if (job.deadline || startedMs === now.getTime()) {
    const delayMs = startedMs + timeoutMs - now.getTime() + 50;
    return { kind: 'waiting', missing, deadline: { job: { recordId: record.id, deadline: true }, delayMs } };
  }
  return { kind: 'waiting', missing };
}
