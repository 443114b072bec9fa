import type { ServiceDeps } from '../deps.js';
import { listDeliveries } from '../erp/delivery/views.js';
import { listEventsCapped } from '../inbound/event-list-page.js';
import { listRecords } from '../push/list.js';
import { getRun } from '../reconcile/get-run.js';
import { listRuns } from '../reconcile/list-runs.js';
import { PUSH_ENTITIES } from '../store/index.js';

/** What an operator must deal with, of one kind; `total` counts them all, `items` are the newest. */
export interface NeedsActionGroup<T> {
  total: number;
  more: boolean;
  items: T[];
}

/**
 * Everything of one connection that waits for an operator, by kind: inbound events quarantined,
 * failed or refused by the ERP; failed WMS pushes; dead ERP deliveries; the drift the last
 * reconciliation found. Read through the same functions as the admin API's lists.
 */
export async function needsAction(deps: ServiceDeps, connection: string, limit = 20) {
  const events = (status: 'quarantined' | 'failed' | 'rejected_by_erp') =>
    listEventsCapped(deps.store, { connection, status }, { limit });
  const [quarantined, failed, refused, pushes, dead, runs] = await Promise.all([
    events('quarantined'),
    events('failed'),
    events('rejected_by_erp'),
    Promise.all(PUSH_ENTITIES.map((entity) => listRecords(deps.store, { connection, entity, state: 'failed', limit }))),
    listDeliveries(deps.store, { connection, status: 'dead' }, { limit }),
    listRuns(deps.store, { connection, limit: 1 }),
  ]);
  const last = runs.runs[0];
  const run =
    last && last.driftCount > 0 ? await getRun(deps.store, { connection, id: last.id, itemsLimit: limit }) : undefined;
  const failedPushes = pushes.flatMap((p) => p.records).slice(0, limit);
  return {
    quarantined,
    failed,
    refused,
    pushes: { total: failedPushes.length, more: pushes.some((p) => p.nextBefore !== null), items: failedPushes },
    deliveries: { total: dead.total, more: false, items: dead.deliveries },
    drift: run
      ? {
          run: run.id,
          total: run.driftCount,
          more: run.nextItemsAfter !== null,
          items: run.items.filter((i) => i.status === 'drift'),
        }
      : undefined,
  };
}

export type NeedsAction = Awaited<ReturnType<typeof needsAction>>;
