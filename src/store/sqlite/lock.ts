/**
 * How long a statement or a transaction waits for the open transaction before it gives up. Our
 * transactions hold the lock for milliseconds; a wait this long means a store call made from
 * inside its own transaction (it waits for itself), which would otherwise hang for ever.
 */
export const LOCK_WAIT_LIMIT_MS = 30_000;

export class LockWaitTimeout extends Error {
  constructor(waitedMs: number) {
    super(
      `waited ${waitedMs} ms for the open SQLite transaction: a store call made inside its own transaction waits for itself (use the tx object)`,
    );
  }
}

/**
 * better-sqlite3 runs every statement synchronously on one connection, so a plain statement can
 * never interleave with another; an async transaction can, at each of its awaits. This lock makes
 * a transaction exclusive: while one is open, other callers' statements wait until it ends.
 *
 * A store call made from inside the code holding the lock (instead of through its tx object)
 * would wait for itself. The lock does not try to tell such a call from one that may wait: that
 * takes either an AsyncLocalStorage, which on Node 20 turns on promise hooks for the whole process
 * (the receiver took 10 % more CPU per webhook), or reading the caller's stack. It bounds every
 * wait instead (`waitLimitMs`): a mistake fails, after the limit, with an error that names it,
 * and the common path, a free lock, costs nothing.
 */
export class SqliteLock {
  #tail: Promise<void> = Promise.resolve();
  #held = false;
  /** Holders and waiters: the one holding the lock and those queued behind it. */
  #inLine = 0;
  readonly #waitLimitMs: number;

  constructor(waitLimitMs = LOCK_WAIT_LIMIT_MS) {
    this.#waitLimitMs = waitLimitMs;
  }

  /** Runs a synchronous statement now, or after the open transaction ends. */
  run<T>(fn: () => T): Promise<T> {
    if (!this.#held) {
      try {
        return Promise.resolve(fn());
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return this.#queue(async () => fn());
  }

  /** Runs `fn` with the lock held from start to end, after every earlier holder. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#queue(fn);
  }

  #queue<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    const queuedBehind = this.#inLine;
    this.#inLine += 1;
    const done = () => {
      this.#inLine -= 1;
      release();
    };
    // Nobody ahead: the turn comes on the next microtask, so there is no wait to bound.
    if (queuedBehind === 0) return previous.then(() => this.#hold(fn, done));
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new LockWaitTimeout(this.#waitLimitMs));
      }, this.#waitLimitMs);
      timer.unref();
    });
    const turn = previous.then(() => {
      clearTimeout(timer);
      // A caller that gave up passes its turn on at once.
      if (!timedOut) return this.#hold(fn, done);
      done();
      return undefined as T;
    });
    return Promise.race([turn, gaveUp]);
  }

  async #hold<T>(fn: () => Promise<T>, done: () => void): Promise<T> {
    this.#held = true;
    try {
      return await fn();
    } finally {
      this.#held = false;
      done();
    }
  }
}
