import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from './lib/config.js';
import type { Logger } from './lib/logger.js';

/** What the thread is started with (structured-cloned into it). */
export interface WorkerThreadData {
  config: Config;
  /** The SQLite write lock's memory, shared with the receiver's connection. */
  sharedLock?: SharedArrayBuffer;
  /** The queues' wake channel: the receiver's sends wake the thread's loops. */
  wakeChannel: string;
}

export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** Host → thread. */
export type ToThread = { type: 'metrics'; id: number } | { type: 'stop' };
/** Thread → host. */
export type FromThread =
  | { type: 'ready' }
  | { type: 'start-failed'; message: string }
  | { type: 'metrics'; id: number; metrics: ThreadMetrics }
  | { type: 'stopped' };

export interface WorkerThread {
  /** The thread's metrics (its jobs' counters and histograms), for the process's `/metrics`. */
  metrics(): Promise<ThreadMetrics>;
  /** Stops the jobs as `worker` stops them (SHUTDOWN_GRACE_MS), then the thread. */
  stop(): Promise<void>;
  /** Resolves if the thread ends without being asked to (a crash): the process should stop. */
  readonly died: Promise<Error>;
}

const BOOT = new URL('./worker-thread-boot.mjs', import.meta.url);

/** A name no other process or store of this one uses. */
export const newWakeChannelName = () => `wms-sync-queue-wake:${randomUUID()}`;

/**
 * Runs the job worker of `serve` on a thread of its own (`worker-thread-entry.ts`), so webhook
 * processing and pushes stop competing with the receiver for one event loop (docs/scaling.md).
 * Resolves once the thread's jobs are registered; rejects if it cannot start.
 */
export function startWorkerThread(data: WorkerThreadData, logger: Logger): Promise<WorkerThread> {
  const worker = new Worker(BOOT, { workerData: data });
  let stopping = false;
  let nextId = 0;
  const metricsWaiters = new Map<number, (m: ThreadMetrics) => void>();
  let onStopped: (() => void) | undefined;
  let resolveDied!: (err: Error) => void;
  const died = new Promise<Error>((resolve) => (resolveDied = resolve));
  let ended = false;
  const exited = new Promise<number>((resolve) =>
    worker.once('exit', (code) => {
      ended = true;
      resolve(code);
    }),
  );

  return new Promise<WorkerThread>((resolve, reject) => {
    let ready = false;
    worker.on('error', (err) => {
      logger.fatal({ err: err.message, stack: err.stack }, 'worker thread failed');
      if (!ready) reject(err);
    });
    void exited.then((code) => {
      for (const waiter of metricsWaiters.values()) waiter([]);
      metricsWaiters.clear();
      onStopped?.();
      if (!ready) reject(new Error(`worker thread exited with code ${code} before it started`));
      else if (!stopping) resolveDied(new Error(`worker thread exited with code ${code}`));
    });
    worker.on('message', (message: FromThread) => {
      switch (message.type) {
        case 'ready':
          ready = true;
          resolve(handle);
          return;
        case 'start-failed':
          reject(new Error(message.message));
          return;
        case 'metrics':
          metricsWaiters.get(message.id)?.(message.metrics);
          metricsWaiters.delete(message.id);
          return;
        case 'stopped':
          onStopped?.();
      }
    });
    const send = (message: ToThread) => worker.postMessage(message);
    const handle: WorkerThread = {
      died,
      metrics: () =>
        new Promise((done) => {
          if (ended) return done([]);
          const id = nextId++;
          metricsWaiters.set(id, done);
          send({ type: 'metrics', id });
        }),
      stop: async () => {
        stopping = true;
        if (ended) return;
        const stopped = new Promise<void>((done) => (onStopped = done));
        send({ type: 'stop' });
        await stopped;
        await exited;
      },
    };
  });
}
