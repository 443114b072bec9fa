import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.js';
import { silentLogger } from '../../src/lib/logger.js';
import { abandonSharedLock, newSharedLockMemory } from '../../src/store/index.js';
import { SharedMutex } from '../../src/store/sqlite/shared-mutex.js';
import { startWorkerThread } from '../../src/worker-thread.js';

const STAND_IN = new URL('./fixtures/stand-in-thread.ts', import.meta.url);
const config = loadConfig({});

/** The thread's data plus what the stand-in should do (extra fields travel in workerData too). */
const standIn = (behaviour: 'refuse' | 'answer' | 'die-holding-lock', sharedLock?: SharedArrayBuffer) => {
  const data = { config, wakeChannel: 'stand-in', sharedLock, behaviour };
  return data;
};

/** The host side of serve's worker thread (src/worker-thread.ts), against stand-in threads. */
describe('startWorkerThread', () => {
  it('rejects with the reason when the thread cannot start', async () => {
    const start = startWorkerThread(standIn('refuse'), silentLogger(), { entry: STAND_IN });
    await expect(start).rejects.toThrow('the store could not be opened');
  });

  it('passes queries to the thread and returns its answers; stop ends it', async () => {
    const thread = await startWorkerThread(standIn('answer'), silentLogger(), { entry: STAND_IN });
    expect((await thread.metrics())[0]).toMatchObject({ name: 'stand_in_total', values: [{ value: 7 }] });
    expect(await thread.tokens('acme')).toEqual({ requests: 3, failures: 1, expiresInSeconds: 60 });
    await thread.stop();
    // After the end: answers of a thread without data, at once.
    expect(await thread.metrics()).toEqual([]);
  });

  it('a thread that dies holding the write lock: died resolves, onExit gives its ticket up, the lock is free again', async () => {
    const sharedLock = newSharedLockMemory();
    let exited = 0;
    const thread = await startWorkerThread(standIn('die-holding-lock', sharedLock), silentLogger(), {
      entry: STAND_IN,
      onExit: () => {
        exited += 1;
        abandonSharedLock(sharedLock, 'worker');
      },
    });
    // The stand-in dies on this query; a query in flight when the thread ends answers as a thread without data.
    const inFlight = thread.metrics();
    const error = await thread.died;
    expect(error.message).toMatch(/worker thread exited with code 1/);
    expect(await inFlight).toEqual([]);
    expect(exited).toBe(1);
    const receiver = new SharedMutex(sharedLock, 'receiver');
    expect(receiver.tryAcquire()).toBe(true);
    receiver.release();
    expect(await thread.tokens('acme')).toEqual({ requests: 0, failures: 0, expiresInSeconds: null });
    await thread.stop();
  });
});
