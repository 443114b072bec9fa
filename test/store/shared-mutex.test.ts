import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SharedMutex } from '../../src/store/sqlite/shared-mutex.js';

const BOOT = new URL('../support/thread-boot.mjs', import.meta.url);
const THREAD = new URL('./fixtures/mutex-thread.ts', import.meta.url).href;

/** Read, yield to the event loop, write: two such sections overlapping lose an increment. */
async function increments(mutex: SharedMutex | undefined, counter: Int32Array, rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await mutex?.acquire();
    const seen = counter[0]!;
    await new Promise((resolve) => setImmediate(resolve));
    counter[0] = seen + 1;
    mutex?.release();
  }
}

describe('SharedMutex: the SQLite write lock shared by the threads of a process', () => {
  it('two threads taking turns under it lose no increment of a shared counter', async () => {
    const mutex = new SharedMutex();
    const counter = new SharedArrayBuffer(4);
    const rounds = 300;
    const thread = new Worker(BOOT, { workerData: { module: THREAD, buffer: mutex.buffer, counter, rounds } });
    const done = new Promise<void>((resolve, reject) => {
      thread.once('message', () => resolve());
      thread.once('error', reject);
    });
    await Promise.all([increments(mutex, new Int32Array(counter), rounds), done]);
    await thread.terminate();
    expect(new Int32Array(counter)[0]).toBe(2 * rounds);
  });

  it('without it the same sections overlap and lose increments (the test above can fail)', async () => {
    const counter = new Int32Array(new SharedArrayBuffer(4));
    await Promise.all([increments(undefined, counter, 50), increments(undefined, counter, 50)]);
    expect(counter[0]).toBeLessThan(100);
  });

  it('serves waiters in the order they asked (a busy thread cannot starve the other)', async () => {
    const mutex = new SharedMutex();
    await mutex.acquire();
    const order: string[] = [];
    const first = mutex.acquire().then(() => order.push('first'));
    const second = mutex.acquire().then(() => order.push('second'));
    // The holder releases and asks again at once: it goes behind the two already waiting.
    mutex.release();
    const again = mutex.acquire().then(() => order.push('holder again'));
    await first;
    mutex.release();
    await second;
    mutex.release();
    await again;
    mutex.release();
    expect(order).toEqual(['first', 'second', 'holder again']);
  });

  it('tryAcquire takes a free lock at once and refuses a held or awaited one', async () => {
    const mutex = new SharedMutex();
    expect(mutex.tryAcquire()).toBe(true);
    expect(new SharedMutex(mutex.buffer).tryAcquire()).toBe(false);
    const waiting = mutex.acquire();
    mutex.release();
    await waiting;
    expect(mutex.tryAcquire()).toBe(false);
    mutex.release();
    expect(mutex.tryAcquire()).toBe(true);
    mutex.release();
  });
});
