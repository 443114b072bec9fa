import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from './lib/config.js';
import type { Logger } from './lib/logger.js';
import type { WmsTokenView } from './wms-client/index.js';

/** What the thread is started with (structured-cloned into it). */
export interface WorkerThreadData {
  config: Config;
  /** The SQLite write lock's memory, shared with the receiver's connection. */
  sharedLock?: SharedArrayBuffer | undefined;
  /** The queues' wake channel: the receiver's sends wake the thread's loops. */
  wakeChannel: string;
}

export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** What the receiver's thread asks the worker's, and the answer's type. */
export interface ThreadQueries {
  metrics: { input: null; output: ThreadMetrics };
  tokens: { input: string; output: WmsTokenView };
}
export type ThreadQuery = keyof ThreadQueries;

/** Host → thread. */
export type ToThread = { type: 'query'; id: number; query: ThreadQuery; input: unknown } | { type: 'stop' };
/** Thread → host. */
export type FromThread =
  | { type: 'ready' }
  | { type: 'start-failed'; message: string }
  | { type: 'answer'; id: number; output: unknown; failed?: boolean }
  | { type: 'stopped' };

/** The worker thread, seen from the receiver's: what the process's HTTP answers need from it. */
export interface ThreadView {
  /** Its metrics (its jobs' counters and histograms), for the process's `/metrics`. */
  metrics(): Promise<ThreadMetrics>;
  /** A connection's token cache, used by the thread's pushes and reconciliations. */
  tokens(connection: string): Promise<WmsTokenView>;
}

export interface WorkerThread extends ThreadView {
  /** Stops the jobs as `worker` stops them (SHUTDOWN_GRACE_MS), then the thread. */
  stop(): Promise<void>;
  /** Resolves if the thread ends without being asked to (a crash): the process should stop. */
  readonly died: Promise<Error>;
}

const BOOT = new URL('./worker-thread-boot.mjs', import.meta.url);
const ENTRY = new URL('./worker-thread-entry.ts', import.meta.url);

/** A name no other process or store of this one uses. */
export const newWakeChannelName = () => `wms-sync-queue-wake:${randomUUID()}`;

/** Answers of a thread that has ended: nothing counted, nothing cached. */
const ENDED: { [Q in ThreadQuery]: ThreadQueries[Q]['output'] } = {
  metrics: [],
  tokens: { requests: 0, failures: 0, expiresInSeconds: null },
};

/**
 * Runs the job worker of `serve` on a thread of its own (`worker-thread-entry.ts`), so webhook
 * processing and pushes stop competing with the receiver for one event loop (docs/scaling.md).
 * Resolves once the thread's jobs are registered; rejects if it cannot start.
 */
export function startWorkerThread(
  data: WorkerThreadData,
  logger: Logger,
  options: {
    /** Called once the thread has ended, for whatever reason (before `died` resolves). */
    onExit?: () => void;
    graceMs?: number;
    /** The module the thread runs (tests run stand-ins that speak the same messages). */
    entry?: URL;
  } = {},
): Promise<WorkerThread> {
  const worker = new Worker(BOOT, { workerData: { ...data, entry: (options.entry ?? ENTRY).href } });
  // Past the jobs' grace period and a margin, a stop that has not ended ends the thread by force.
  const stopTimeoutMs = (options.graceMs ?? 10_000) + 5_000;
  let stopping = false;
  let ended = false;
  let nextId = 0;
  const pending = new Map<number, { query: ThreadQuery; answer: (output: unknown) => void }>();
  let onStopped: (() => void) | undefined;
  let resolveDied!: (err: Error) => void;
  const died = new Promise<Error>((resolve) => (resolveDied = resolve));
  const exited = new Promise<number>((resolve) =>
    worker.once('exit', (code) => {
      ended = true;
      options.onExit?.();
      resolve(code);
    }),
  );
  const send = (message: ToThread) => worker.postMessage(message);
  const ask = <Q extends ThreadQuery>(
    query: Q,
    input: ThreadQueries[Q]['input'],
  ): Promise<ThreadQueries[Q]['output']> =>
    new Promise((answer) => {
      if (ended) return answer(ENDED[query]);
      const id = nextId++;
      pending.set(id, { query, answer: answer as (output: unknown) => void });
      send({ type: 'query', id, query, input });
    });

  return new Promise<WorkerThread>((resolve, reject) => {
    let ready = false;
    worker.on('error', (err) => {
      logger.fatal({ err: err.message, stack: err.stack }, 'worker thread failed');
      if (!ready) reject(err);
    });
    void exited.then((code) => {
      for (const { query, answer } of pending.values()) answer(ENDED[query]);
      pending.clear();
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
        case 'answer': {
          const waiting = pending.get(message.id);
          pending.delete(message.id);
          // A query the thread could not answer (a gauge's read failed) answers as a thread without data.
          waiting?.answer(message.failed ? ENDED[waiting.query] : message.output);
          return;
        }
        case 'stopped':
          onStopped?.();
      }
    });
    const handle: WorkerThread = {
      died,
      metrics: () => ask('metrics', null),
      tokens: (connection) => ask('tokens', connection),
      stop: async () => {
        stopping = true;
        if (ended) return;
        const stopped = new Promise<void>((done) => (onStopped = done));
        send({ type: 'stop' });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((done) => (timer = setTimeout(() => done('late'), stopTimeoutMs)));
        if ((await Promise.race([stopped, late])) === 'late') {
          logger.error({ timeoutMs: stopTimeoutMs }, 'worker thread did not stop in time; terminating it');
          await worker.terminate();
        }
        clearTimeout(timer);
        await exited;
      },
    };
  });
}
