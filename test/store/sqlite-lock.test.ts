import { describe, expect, it } from 'vitest';
import { LockWaitTimeout, SqliteLock } from '../../src/store/sqlite/lock.js';

/**
 * The lock's rules (`src/store/sqlite/lock.ts`): a call that finds the lock held waits its turn,
 * in order; a call made from inside the holder's own code would wait for itself, so every wait is
 * bounded and such a call fails after the limit with an error that names the mistake.
 */
describe('SqliteLock', () => {
  /** Resolves on a later turn of the event loop: the holder's code resumes from a real await. */
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('fails a statement from inside the holder after the wait limit, never runs it, and is free again', async () => {
    const lock = new SqliteLock(50);
    const ran: string[] = [];
    const helper = async () => {
      await tick();
      return lock.run(() => ran.push('inner'));
    };
    await lock.exclusive(async () => {
      await expect(lock.run(() => ran.push('sync'))).rejects.toThrow(LockWaitTimeout);
      await tick();
      await expect(lock.run(() => ran.push('after an await'))).rejects.toThrow(
        /inside its own transaction.*use the tx object/,
      );
      await expect(helper()).rejects.toThrow(LockWaitTimeout);
      ran.push('body done');
    });
    expect(ran).toEqual(['body done']);
    await expect(lock.run(() => 42)).resolves.toBe(42);
    await expect(lock.exclusive(async () => 'next holder')).resolves.toBe('next holder');
  });

  it('fails a nested exclusive section the same way', async () => {
    const lock = new SqliteLock(50);
    let nestedRan = false;
    await lock.exclusive(async () => {
      await tick();
      await expect(
        lock.exclusive(async () => {
          nestedRan = true;
        }),
      ).rejects.toThrow(LockWaitTimeout);
    });
    await tick();
    expect(nestedRan).toBe(false);
  });

  it('a wait shorter than the limit gets its turn', async () => {
    const lock = new SqliteLock(5_000);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const holder = lock.exclusive(async () => gate);
    const waiter = lock.run(() => 'my turn');
    await tick();
    open();
    await holder;
    await expect(waiter).resolves.toBe('my turn');
  });

  it('lets a caller from outside wait for the holder, in order', async () => {
    const lock = new SqliteLock();
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const holder = lock.exclusive(async () => {
      order.push('holder starts');
      await gate;
      order.push('holder ends');
    });
    // Started outside the holder's code (the test's own flow), while the holder waits at its gate.
    await tick();
    const outside = lock.run(() => order.push('outside statement'));
    const second = lock.exclusive(async () => void order.push('second holder'));
    open();
    await Promise.all([holder, outside, second]);
    expect(order).toEqual(['holder starts', 'holder ends', 'outside statement', 'second holder']);
  });

  it("one lock's holder calling another lock that is held waits for it", async () => {
    const a = new SqliteLock();
    const b = new SqliteLock();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const bHolder = b.exclusive(async () => {
      await gate;
      return 'b done';
    });
    let called!: () => void;
    const calledWhileBHeld = new Promise<void>((resolve) => (called = resolve));
    const fromA = a.exclusive(async () => {
      await tick();
      // Inside a's holder, not b's: b's statement waits for b's holder.
      const statement = b.run(() => 'b statement from inside a');
      called();
      return statement;
    });
    // b's holder is opened only once a's call was made while b was held.
    await calledWhileBHeld;
    open();
    await expect(Promise.all([bHolder, fromA])).resolves.toEqual(['b done', 'b statement from inside a']);
  });
});
