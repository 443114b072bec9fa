import type { PushEntity, PushRecord } from '../store/index.js';
import type { IntakeDeps } from './intake.js';
import { PUSH_QUEUE, type PushJob } from './job/queue.js';

export type RetryOutcome =
  | { outcome: 'queued'; record: PushRecord }
  | { outcome: 'in-sync'; record: PushRecord }
  /** A push of it is running: its outcome is not known yet, so there is nothing to retry yet. */
  | { outcome: 'busy'; record: PushRecord }
  | { outcome: 'not-found' };

/**
 * Puts a record back in line now: a failed one (after the data was fixed in the WMS, or the WMS
 * is back), or a pending one that waits or backs off. A record whose payload is synced has
 * nothing to retry.
 */
export async function retryRecord(
  deps: IntakeDeps,
  connection: string,
  entity: PushEntity,
  externalCode: string,
): Promise<RetryOutcome> {
  const record = await deps.store.pushes.get(connection, entity, externalCode);
  if (!record) return { outcome: 'not-found' };
  if (record.state === 'synced') return { outcome: 'in-sync', record };
  // A failed record's push is over (its outcome known), even while its lease is being given back.
  const pushing =
    record.state === 'pending' &&
    record.lockedBy &&
    record.lockedUntil &&
    record.lockedUntil.getTime() > deps.clock.nowMs();
  if (pushing) return { outcome: 'busy', record };
  await deps.store.transaction(async (tx) => {
    await tx.pushes.markPending(record.id, deps.clock.now());
    await deps.queue.send<PushJob>(PUSH_QUEUE, { recordId: record.id }, { tx });
  });
  return { outcome: 'queued', record: (await deps.store.pushes.getById(record.id))! };
}

/** Every failed record of a connection (optionally one entity), retried; returns how many. */
export async function retryFailed(deps: IntakeDeps, connection: string, entity?: PushEntity): Promise<PushRecord[]> {
  const retried: PushRecord[] = [];
  let afterId = 0;
  for (;;) {
    // By id, so a record that fails again meanwhile is not retried twice in one run.
    const page = await deps.store.pushes.list({
      connection,
      state: 'failed',
      limit: 500,
      afterId,
      ...(entity ? { entity } : {}),
    });
    if (page.length === 0) return retried;
    afterId = page.at(-1)!.id;
    await deps.store.transaction(async (tx) => {
      for (const record of page) await tx.pushes.markPending(record.id, deps.clock.now());
      await deps.queue.sendMany<PushJob>(
        PUSH_QUEUE,
        page.map((r) => ({ data: { recordId: r.id } })),
        { tx },
      );
    });
    retried.push(...page);
  }
}
