import type { Clock } from '../lib/clock.js';
import type { Queue } from '../queue/types.js';
import type { ReconciliationRun, ReconciliationTrigger, Store } from '../store/index.js';
import { createRunQueue, type RunJobData, runQueueOf } from './queue.js';

export interface RequestDeps {
  store: Store;
  queue: Queue;
  clock: Clock;
}

class AlreadyWaiting extends Error {}

/**
 * Asks for a run of the connection: a queued run and its job, committed together. When a run of
 * the connection is already waiting to start, no second one is made: that run is answered
 * (`created: false`), since it will look at the stock after this request anyway.
 */
export async function requestRun(
  deps: RequestDeps,
  connection: string,
  trigger: ReconciliationTrigger,
): Promise<{ run: ReconciliationRun; created: boolean }> {
  await createRunQueue(deps.queue, connection);
  // The waiting run may start between the refused send and the lookup: then a new one can wait.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await deps.store.transaction(async (tx) => {
        const run = await tx.reconciliation.createRun({ connection, trigger, at: deps.clock.now() });
        const data: RunJobData = { runId: run.id, connection };
        const jobId = await deps.queue.send(runQueueOf(connection), data, { tx, singletonKey: connection });
        if (jobId === null) throw new AlreadyWaiting();
        return { run, created: true };
      });
    } catch (err) {
      if (!(err instanceof AlreadyWaiting)) throw err;
    }
    const waiting = await deps.store.reconciliation.findQueued(connection);
    if (waiting) return { run: waiting, created: false };
  }
  throw new Error(`could not queue a reconciliation run for connection "${connection}"`);
}
