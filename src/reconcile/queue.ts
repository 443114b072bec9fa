import { sha256Hex } from '../lib/crypto.js';
import type { Queue, QueueOptions } from '../queue/types.js';

/** The cron's queue: each tick asks for one run per connection. */
export const SCHEDULE_QUEUE = 'reconcile-schedule';

export interface RunJobData {
  runId: number;
  connection: string;
}

/**
 * Runs wait in a queue of their connection's own, `stately` and keyed by the connection: at most
 * one run of a connection waits and one runs, never two at once, on both queue adapters. One queue
 * per connection, not one shared: pg-boss fetches the oldest waiting job first, so a run waiting
 * behind its connection's running one would hold back every other connection's runs.
 */
export function runQueueOf(connection: string): string {
  const slug = connection
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return `reconcile-run-${slug ? `${slug}-` : ''}${sha256Hex(connection).slice(0, 8)}`;
}

export const isRunQueue = (name: string): boolean => name.startsWith('reconcile-run-');

/**
 * Retries cover failures of our own (the store down); WMS errors are retried per batch by the run.
 * A run may take up to 30 min with its settle waits (its worker keeps its lease that long); a run
 * whose worker died runs again one lease (10 s) later.
 */
export const RUN_QUEUE_OPTIONS: QueueOptions = {
  policy: 'stately',
  retryLimit: 2,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 30 * 60,
};

/** Created before any send: a queue's policy is fixed by whoever creates it first. */
export function createRunQueue(queue: Queue, connection: string): Promise<void> {
  return queue.createQueue(runQueueOf(connection), RUN_QUEUE_OPTIONS);
}
