import { AsyncLocalStorage } from 'node:async_hooks';
import type { SharedMutex } from './shared-mutex.js';

/**
 * better-sqlite3 runs every statement synchronously on one connection, so a plain statement can
 * never interleave with another; an async transaction can, at each of its awaits. This lock makes
 * a transaction exclusive: while one is open, other callers' statements wait until it ends.
 * Statements issued through the store (not the tx) from inside the transaction would wait forever;
 * that mistake throws instead of hanging.
 *
 * With a `SharedMutex`, the connection shares its file with another thread's: every statement and
 * transaction also holds that lock, so neither thread meets the other's write lock in SQLite.
 */
export class SqliteLock {
  #tail: Promise<void> = Promise.resolve();
  #held = false;
  readonly #inside = new AsyncLocalStorage<true>();

  constructor(private readonly shared?: SharedMutex) {}

  /** Runs a synchronous statement now, or after the open transaction ends. */
  run<T>(fn: () => T): Promise<T> {
    if (!this.#held && (!this.shared || this.shared.tryAcquire())) {
      try {
        return Promise.resolve(fn());
      } catch (err) {
        return Promise.reject(err);
      } finally {
        this.shared?.release();
      }
    }
    if (this.#inside.getStore()) {
      return Promise.reject(new Error('store used directly inside its own transaction: use the tx object'));
    }
    return this.#queue(async () => fn());
  }

  /** Runs `fn` with the lock held from start to end, after every earlier holder. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#inside.getStore()) {
      return Promise.reject(new Error('nested transactions are not supported: use the tx object'));
    }
    return this.#queue(() => this.#inside.run(true, fn));
  }

  #queue<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    return previous.then(async () => {
      this.#held = true;
      try {
        if (this.shared) await this.shared.acquire();
        try {
          return await fn();
        } finally {
          this.shared?.release();
        }
      } finally {
        this.#held = false;
        release();
      }
    });
  }
}
