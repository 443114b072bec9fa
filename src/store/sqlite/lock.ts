let locks = 0;

/**
 * better-sqlite3 runs every statement synchronously on one connection, so a plain statement can
 * never interleave with another; an async transaction can, at each of its awaits. This lock makes
 * a transaction exclusive: while one is open, other callers' statements wait until it ends.
 * Statements issued through the store (not the tx) from inside the transaction would wait forever;
 * that mistake throws instead of hanging.
 */
export class SqliteLock {
  #tail: Promise<void> = Promise.resolve();
  #held = false;
  /**
   * Runs each exclusive holder's code, under a name of this lock's own: the name is then on the
   * stack of every call made from inside that code, after its awaits too (V8's async stack
   * traces), which is how a call from inside is told from one that may wait (`#fromHolder`).
   * An AsyncLocalStorage told them apart before, but on Node 20 it turns on promise hooks for the
   * whole process: the receiver took 10 % more CPU per webhook (bench, docs/benchmarks.md).
   */
  readonly #holder: <T>(fn: () => Promise<T>) => Promise<T>;
  readonly #frame: string;

  constructor() {
    const name = `sqliteLockHolder${(locks += 1)}`;
    this.#holder = { [name]: async <T>(fn: () => Promise<T>): Promise<T> => await fn() }[name]!;
    this.#frame = `${name} (`;
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
    if (this.#fromHolder()) {
      return Promise.reject(new Error('store used directly inside its own transaction: use the tx object'));
    }
    return this.#queue(async () => fn());
  }

  /** Runs `fn` with the lock held from start to end, after every earlier holder. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#fromHolder()) {
      return Promise.reject(new Error('nested transactions are not supported: use the tx object'));
    }
    return this.#queue(() => this.#holder(fn));
  }

  /**
   * Whether the caller runs inside the code holding this lock, which would wait for itself. Only
   * looked at when the lock is held, so the common path reads no stack.
   */
  #fromHolder(): boolean {
    if (!this.#held) return false;
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Infinity;
    try {
      return (new Error().stack ?? '').includes(this.#frame);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  #queue<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    return previous.then(async () => {
      this.#held = true;
      try {
        return await fn();
      } finally {
        this.#held = false;
        release();
      }
    });
  }
}
