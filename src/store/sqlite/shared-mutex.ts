/**
 * The write lock shared by the two threads of `serve` that open the same SQLite file (the receiver's
 * and the worker's: docs/scaling.md). Without it, a thread that finds the file locked by the other
 * sleeps in SQLite's busy handler, synchronously, in steps of 1, 2, 5, 10… ms: the receiver's event
 * loop stood still and its p99 rose to 280–420 ms. Here a waiting thread's event loop goes on
 * (`Atomics.waitAsync`) and is woken when the holder releases.
 *
 * A ticket lock over counters in shared memory, so the threads take turns in arrival order: a
 * thread with a continuous backlog of transactions (the receiver under load) cannot starve the
 * other by re-taking the lock before the other's wake-up has run. Each side also writes down the
 * ticket it holds or waits with, so that when a thread dies with one, the survivor gives it up on
 * its behalf (`abandon`) instead of waiting for it forever.
 */
export type LockSide = 'receiver' | 'worker';

const NEXT = 0;
const SERVING = 1;
/** A dead side's ticket still in the line: skipped when its turn comes. */
const SKIP_SET = 2;
const SKIP_TICKET = 3;
/** Per side: whether it holds or waits with a ticket, and which. */
const HAS = { receiver: 4, worker: 6 } as const;
const TICKET = { receiver: 5, worker: 7 } as const;
const CELLS = 8;

export class SharedMutex {
  readonly #cells: Int32Array;

  /** `buffer`: the other side's mutex's, to share it; a new lock without. */
  constructor(
    readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(CELLS * 4),
    readonly side: LockSide = 'receiver',
  ) {
    this.#cells = new Int32Array(buffer);
  }

  /** Takes the lock if nobody holds it or waits for it; never waits. */
  tryAcquire(): boolean {
    const serving = Atomics.load(this.#cells, SERVING);
    if (Atomics.compareExchange(this.#cells, NEXT, serving, serving + 1) !== serving) return false;
    this.#note(serving);
    return true;
  }

  /** Resolves once this side holds the lock, after every caller that asked before it. */
  async acquire(): Promise<void> {
    const ticket = Atomics.add(this.#cells, NEXT, 1);
    this.#note(ticket);
    for (;;) {
      const serving = Atomics.load(this.#cells, SERVING);
      if (serving === ticket) return;
      const wait = Atomics.waitAsync(this.#cells, SERVING, serving);
      if (wait.async) await wait.value;
    }
  }

  release(): void {
    Atomics.store(this.#cells, HAS[this.side], 0);
    this.#advance();
  }

  /**
   * Gives up the ticket `side` holds or waits with, that side's thread having died: held, the lock
   * passes on; waiting, the ticket is skipped when its turn comes. Call it from the living side only.
   */
  abandon(side: LockSide): void {
    if (Atomics.load(this.#cells, HAS[side]) === 0) return;
    Atomics.store(this.#cells, HAS[side], 0);
    const ticket = Atomics.load(this.#cells, TICKET[side]);
    if (Atomics.load(this.#cells, SERVING) === ticket) {
      this.#advance();
      return;
    }
    Atomics.store(this.#cells, SKIP_TICKET, ticket);
    Atomics.store(this.#cells, SKIP_SET, 1);
  }

  #note(ticket: number): void {
    Atomics.store(this.#cells, TICKET[this.side], ticket);
    Atomics.store(this.#cells, HAS[this.side], 1);
  }

  #advance(): void {
    const serving = (Atomics.add(this.#cells, SERVING, 1) + 1) | 0;
    // Only the living side can be waiting, so only it reaches a skipped ticket's turn.
    if (Atomics.load(this.#cells, SKIP_SET) === 1 && serving === Atomics.load(this.#cells, SKIP_TICKET)) {
      Atomics.store(this.#cells, SKIP_SET, 0);
      Atomics.add(this.#cells, SERVING, 1);
    }
    Atomics.notify(this.#cells, SERVING);
  }
}
