import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SharedMutex } from '../../src/store/sqlite/shared-mutex.js';

// The service's own thread boot: it registers tsx and imports `workerData.entry`.
const BOOT = new URL('../../src/worker-thread-boot.mjs', import.meta.url);
const THREAD = new URL('./fixtures/mutex-thread.ts', import.meta.url).href;

/**
 * Read, wait a millisecond, write: two such sections overlapping lose an increment. The sections
 * last long enough (a timer, not a turn of the loop) that two threads started together overlap
 * even when one of them is scheduled late on a busy machine.
 */
async function increments(mutex: SharedMutex | undefined, counter: Int32Array, rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await mutex?.acquire();
    const seen = counter[0]!;
    await new Promise((resolve) => setTimeout(resolve, 1));
    counter[0] = seen + 1;
    mutex?.release();
  }
}

function thread(workerData: Record<string, unknown>) {
  const worker = new Worker(BOOT, { workerData: { entry: THREAD, ...workerData } });
  const messages: string[] = [];
  const waiters: (() => void)[] = [];
  worker.on('message', (m: string) => {
    messages.push(m);
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A thread that throws on purpose: its error is the point of the test.
  worker.on('error', () => undefined);
  const message = async (m: string) => {
    while (!messages.includes(m)) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { worker, message, exited };
}

/** Both threads run `rounds` sections at once (a start flag both wait on), with or without the lock. */
async function race(locked: boolean, rounds: number): Promise<number> {
  const mutex = new SharedMutex();
  const counter = new SharedArrayBuffer(4);
  const start = new SharedArrayBuffer(4);
  const other = thread({ buffer: mutex.buffer, counter, start, rounds, mode: 'increments', locked });
  await other.message('ready');
  Atomics.store(new Int32Array(start), 0, 1);
  Atomics.notify(new Int32Array(start), 0);
  await Promise.all([increments(locked ? mutex : undefined, new Int32Array(counter), rounds), other.message('done')]);
  await other.exited;
  return new Int32Array(counter)[0]!;
}

describe('SharedMutex: the SQLite write lock shared by the threads of a process', () => {
  it('two threads running the same sections at once under it lose no increment of a shared counter', async () => {
    expect(await race(true, 200)).toBe(400);
  });

  it('without it the same two threads lose increments (the test above can fail)', async () => {
    expect(await race(false, 200)).toBeLessThan(400);
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
    expect(new SharedMutex(mutex.buffer, 'worker').tryAcquire()).toBe(false);
    const waiting = mutex.acquire();
    mutex.release();
    await waiting;
    expect(mutex.tryAcquire()).toBe(false);
    mutex.release();
    expect(mutex.tryAcquire()).toBe(true);
    mutex.release();
  });

  it('a thread that died holding the lock: the survivor gives its ticket up and takes the lock', async () => {
    const mutex = new SharedMutex();
    const dead = thread({ buffer: mutex.buffer, mode: 'die-holding' });
    await dead.exited;
    expect(mutex.tryAcquire()).toBe(false);
    mutex.abandon('worker');
    expect(mutex.tryAcquire()).toBe(true);
    mutex.release();
  });

  it('a thread that died waiting for the lock: its turn is skipped when it comes', async () => {
    const mutex = new SharedMutex();
    await mutex.acquire();
    const dead = thread({ buffer: mutex.buffer, mode: 'die-waiting' });
    await dead.message('waiting');
    await dead.exited;
    const next = mutex.acquire();
    mutex.abandon('worker');
    mutex.release();
    // Without the skip, this would wait forever for the dead thread's turn to end.
    await next;
    mutex.release();
    expect(mutex.tryAcquire()).toBe(true);
    mutex.release();
    // Abandoning a side without a ticket changes nothing.
    mutex.abandon('worker');
    expect(mutex.tryAcquire()).toBe(true);
    mutex.release();
  });
});
