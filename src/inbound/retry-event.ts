import type { Clock } from '../lib/clock.js';
import type { Config } from '../lib/config.js';
import type { Queue } from '../queue/types.js';
import type { InboundEvent, Store } from '../store/types.js';
import { INBOUND_QUEUE, processJobOptions } from './queue.js';

export type RetryResult = { ok: true; event: InboundEvent; jobId: string | null } | { ok: false; reason: 'not_found' | 'rejected' | 'pruned' };

/**
 * Runs an event's processing again (operator retry or replay by id): back to `received` and a new
 * job, in one transaction. Processing is idempotent, so retrying a processed event adds no second
 * confirmation. A rejected delivery has nothing to process: the WMS must send a corrected one; an
 * event whose raw body was pruned (INBOUND_RETENTION_DAYS) has nothing left to process either.
 */
export async function retryEvent(deps: { store: Store; queue: Queue; clock: Clock; config: Config }, id: number): Promise<RetryResult> {
  const event = await deps.store.inbox.get(id);
  if (!event) return { ok: false, reason: 'not_found' };
  if (event.status === 'rejected') return { ok: false, reason: 'rejected' };
  if (event.payloadPrunedAt) return { ok: false, reason: 'pruned' };
  const at = deps.clock.now();
  const jobId = await deps.store.transaction(async (tx) => {
    if (event.status !== 'received') await tx.inbox.reopen(event.id, at);
    return deps.queue.send(INBOUND_QUEUE, { eventIds: [event.id] }, { ...processJobOptions(deps.config), tx });
  });
  return { ok: true, event: (await deps.store.inbox.get(id))!, jobId };
}
