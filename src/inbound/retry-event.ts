import type { Registry } from 'prom-client';
import type { Clock } from '../lib/clock.js';
import type { Config } from '../lib/config.js';
import type { ConnectionRegistry } from '../lib/connection-registry.js';
import type { Queue } from '../queue/types.js';
import type { InboundEvent, InboxFilter, Store } from '../store/types.js';
import type { InboundStatus } from '../store/values.js';
import { askErpAgain } from './erp-refusal.js';
import { INBOUND_QUEUE, processJobOptions } from './queue.js';

/** What the ERP said when a Retry asked it again about a document it had refused. */
export type ErpAnswerToRetry =
  | { decision: 'accepted' }
  | { decision: 'rejected'; message: string }
  | { decision: 'none'; detail: string };

export type RetryResult =
  | { ok: true; event: InboundEvent; jobId: string | null; erp?: ErpAnswerToRetry }
  | { ok: false; reason: 'not_found' | 'rejected' | 'pruned' | 'no_erp' };

interface RetryDeps {
  store: Store;
  queue: Queue;
  clock: Clock;
  config: Config;
  connections: ConnectionRegistry;
  metrics: Registry;
  stopping?: AbortSignal;
}

/**
 * Runs an event's processing again (operator retry or replay by id): back to `received` and a new
 * job, in one transaction. Processing is idempotent, so retrying a processed event adds no second
 * feed entry. A quarantined event is read again (its latest correction, else the original). A
 * rejected event has nothing to process: the WMS must send a corrected one; an event whose raw
 * body was pruned (INBOUND_RETENTION_DAYS) has nothing left to process either. An event the ERP
 * refused is not processed by a retry: the ERP is asked again (erp-refusal.ts), and only its
 * acceptance queues it; processing it against the refusal is the separate override.
 */
export async function retryEvent(deps: RetryDeps, id: number): Promise<RetryResult> {
  const event = await deps.store.inbox.get(id);
  if (!event) return { ok: false, reason: 'not_found' };
  if (event.status === 'rejected') return { ok: false, reason: 'rejected' };
  if (event.payloadPrunedAt) return { ok: false, reason: 'pruned' };
  if (event.status === 'rejected_by_erp') {
    const asked = await askErpAgain(deps, id);
    if (!asked.ok) return { ok: false, reason: asked.reason === 'not_refused' ? 'not_found' : asked.reason };
    const erp: ErpAnswerToRetry =
      asked.decision === 'accepted'
        ? { decision: 'accepted' }
        : asked.decision === 'rejected'
          ? { decision: 'rejected', message: asked.message }
          : { decision: 'none', detail: asked.detail };
    return { ok: true, event: asked.event, jobId: null, erp };
  }
  const at = deps.clock.now();
  const jobId = await deps.store.transaction(async (tx) => {
    if (event.status !== 'received') await tx.inbox.reopen(event.id, at);
    return deps.queue.send(INBOUND_QUEUE, { eventIds: [event.id] }, { ...processJobOptions(deps.config), tx });
  });
  return { ok: true, event: (await deps.store.inbox.get(id))!, jobId };
}

/** What a bulk retry touches: events that need an operator, never processed or rejected ones. */
export const BULK_RETRY_STATUSES: readonly InboundStatus[] = ['failed', 'quarantined'];
const CHUNK = 200;

export type BulkRetryResult =
  | { ok: true; matched: number; retried: number; dryRun: boolean }
  | { ok: false; problem: string };

/**
 * Retries every failed or quarantined event matching the filter (`status` may narrow it to one of
 * the two). `dryRun` only counts them. Events are reopened and queued in chunks, each chunk in one
 * transaction with its job; an event that left the retryable statuses meanwhile is skipped.
 */
export async function retryMatching(
  deps: RetryDeps,
  filter: Omit<InboxFilter, 'statuses'>,
  options: { dryRun: boolean },
): Promise<BulkRetryResult> {
  if (filter.status && !BULK_RETRY_STATUSES.includes(filter.status)) {
    return { ok: false, problem: `status: a bulk retry applies to ${BULK_RETRY_STATUSES.join(' and ')} events only` };
  }
  const scoped: InboxFilter = filter.status ? filter : { ...filter, statuses: BULK_RETRY_STATUSES };
  const matched = await deps.store.inbox.count(scoped);
  if (options.dryRun) return { ok: true, matched, retried: 0, dryRun: true };
  let retried = 0;
  const ids = await deps.store.inbox.ids(scoped, matched);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const at = deps.clock.now();
    retried += await deps.store.transaction(async (tx) => {
      const reopened: number[] = [];
      for (const id of chunk) if (await tx.inbox.reopen(id, at)) reopened.push(id);
      if (reopened.length > 0)
        await deps.queue.send(INBOUND_QUEUE, { eventIds: reopened }, { ...processJobOptions(deps.config), tx });
      return reopened.length;
    });
  }
  return { ok: true, matched, retried, dryRun: false };
}
