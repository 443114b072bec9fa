/**
 * The write lock shared by the threads of one process that open the same SQLite file (`serve`
 * runs its worker on a thread of its own: docs/scaling.md). Without it, a thread that finds the
 * file locked by the other sleeps in SQLite's busy handler, synchronously, in steps of 1, 2, 5,
 * 10… ms: the receiver's event loop stood still and its p99 rose to 280–420 ms. Here a waiting
 * thread's event loop goes on (`Atomics.waitAsync`) and is woken when the holder releases.
 *
 * A ticket lock over two counters in shared memory, so the threads take turns in arrival order:
 * a thread with a continuous backlog of transactions (the receiver under load) cannot starve the
 * other by re-taking the lock before the other's wake-up has run.
 */
const NEXT = 0;
const SERVING = 1;

export class SharedMutex {
  readonly #cells: Int32Array;

  /** `buffer`: the other thread's mutex's, to share it; a new lock without. */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.#cells = new Int32Array(buffer);
  }

  /** Takes the lock if nobody holds it or waits for it; never waits. */
  tryAcquire(): boolean {
    const serving = Atomics.load(this.#cells, SERVING);
    return Atomics.compareExchange(this.#cells, NEXT, serving, serving + 1) === serving;
  }

  /** Resolves once this caller holds the lock, after every caller that asked before it. */
  async acquire(): Promise<void> {
    const ticket = Atomics.add(this.#cells, NEXT, 1);
    for (;;) {
      const serving = Atomics.load(this.#cells, SERVING);
      if (serving === ticket) return;
      const wait = Atomics.waitAsync(this.#cells, SERVING, serving);
      if (wait.async) await wait.value;
    }
  }

  release(): void {
    Atomics.add(this.#cells, SERVING, 1);
    Atomics.notify(this.#cells, SERVING);
  }
}
