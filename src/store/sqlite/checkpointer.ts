import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The WAL is cut back to this size each time it starts over (SQLite's `journal_size_limit`), and
 * to nothing when the writes pause: a burst or a full disk grows it, and without a bound it keeps
 * its largest size for good (37.9 MB beside a 3.9 MB database after a full disk).
 */
export const WAL_SIZE_LIMIT_BYTES = 8 * 1024 * 1024;

/** Checkpoint ticks with no new WAL frame after which the writes count as paused. */
export const QUIET_TICKS = 5;

// Runs in a worker thread, on a connection of its own: checkpoints copy WAL pages into the
// database file and fsync it, and that must not stall the event loop serving requests.
// Every tick a PASSIVE checkpoint copies what it can without blocking anyone. A TRUNCATE
// checkpoint (which holds the writers back while it runs) is taken only once the WAL is wholly
// copied and no frame was added for `quietTicks` ticks: it then has nothing to copy, takes
// microseconds, and gives the WAL's disk space back. A failing checkpoint (a full disk, a lock)
// is tried again at the next tick, so the WAL shrinks by itself once space returns.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
if (workerData.limitBytes !== null) db.pragma('journal_size_limit = ' + workerData.limitBytes);
let lastLog = -1;
let quiet = 0;
let truncated = false;
const checkpoint = (mode) => {
  try {
    const [row] = db.pragma('wal_checkpoint(' + mode + ')');
    return row;
  } catch { return undefined; }
};
const tick = () => {
  const row = checkpoint('PASSIVE');
  if (!row || workerData.limitBytes === null) return;
  if (row.log !== lastLog) { lastLog = row.log; quiet = 0; truncated = false; return; }
  quiet += 1;
  if (truncated || quiet < workerData.quietTicks || row.log === 0 || row.checkpointed !== row.log) return;
  // No waiting for readers: holding the writers back while a reader finishes would stall them.
  db.pragma('busy_timeout = 0');
  const done = checkpoint('TRUNCATE');
  db.pragma('busy_timeout = 1000');
  if (done && done.busy === 0) { truncated = true; lastLog = 0; }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint(workerData.limitBytes === null ? 'PASSIVE' : 'TRUNCATE');
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Checkpoints once more, closes the worker's connection and ends the thread. */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** The WAL's bound; null leaves it unbounded and never truncates (the bench's baseline). */
  limitBytes?: number | null;
  quietTicks?: number;
}

/**
 * Moves SQLite's WAL checkpoints off the main thread. With the default automatic checkpoint, the
 * commit that crosses 1000 WAL pages copies them and fsyncs the database file inline, a stall of
 * milliseconds for every request in flight (the receiver's p99 is 17–45 ms with it, about 8 ms without).
 * The caller turns automatic checkpoints off on its own connection. PASSIVE never blocks writers;
 * the TRUNCATE that bounds the WAL's size runs only when there is nothing left to copy.
 */
export function startCheckpointer(file: string, options: CheckpointerOptions = {}): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const workerData = {
    file,
    driver,
    intervalMs: options.intervalMs ?? 200,
    limitBytes: options.limitBytes === undefined ? WAL_SIZE_LIMIT_BYTES : options.limitBytes,
    quietTicks: options.quietTicks ?? QUIET_TICKS,
  };
  const worker = new Worker(WORKER, { eval: true, workerData });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A thread that fails to start leaves checkpoints to SQLite's next connection open or close.
  worker.on('error', () => undefined);
  let stopping: Promise<void> | undefined;
  return {
    stop: () =>
      (stopping ??= (async () => {
        // Unref'd so an idle store never keeps the process alive, but a close in progress must.
        worker.ref();
        worker.postMessage('stop');
        await exited;
      })()),
  };
}
