import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { Queue } from '../queue/types.js';
import type { ReconciliationRun, Store } from '../store/index.js';
import { type RunJobData, runQueueOf } from './queue.js';

/**
 * An interrupted run gets a job of its own at once, ready for the next worker of its connection
 * (another process now, or this one's successor on its next start), rather than waiting for the
 * interrupted job's lease to run out (30 min). If a run of the connection is already waiting, that
 * one checks the stock anyway: the interrupted run ends `failed` saying so.
 */
export async function resumeInterrupted(
  deps: { store: Store; queue: Queue; clock: Clock; logger: Logger },
  run: ReconciliationRun,
): Promise<void> {
  const data: RunJobData = { runId: run.id, connection: run.connection };
  const jobId = await deps.queue.send(runQueueOf(run.connection), data, { singletonKey: run.connection });
  if (jobId !== null) {
    deps.logger.info({ runId: run.id, connection: run.connection }, 'interrupted reconciliation queued to start again');
    return;
  }
  const waiting = await deps.store.reconciliation.findQueued(run.connection);
  const instead =
    waiting && waiting.id !== run.id
      ? `run ${waiting.id}, already waiting, checks the stock instead`
      : 'another run of the connection was already waiting';
  await deps.store.reconciliation.finishRun(run.id, {
    status: 'failed',
    reason: `interrupted: the process stopped; ${instead}`,
    at: deps.clock.now(),
  });
}
