import { describe, expect, it } from 'vitest';
import { SqliteLock } from '../../src/store/sqlite/lock.js';

/**
 * The lock's re-entry rules (`src/store/sqlite/lock.ts`): a call made from inside the code holding
 * the lock would wait for itself, so it is refused; a call from anywhere else waits its turn. The
 * lock tells them apart by its holder's frame on the caller's stack, sync or after awaits.
 */
describe('SqliteLock re-entry', () => {
  /** Resolves on a later turn of the event loop: the holder's code resumes from a real await. */
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('refuses a statement from inside the holder, before and after its awaits, and deep in helpers', async () => {
    const lock = new SqliteLock();
    const helper = async () => {
      await tick();
      return lock.run(() => 'inner');
    };
    const seen: string[] = [];
    await lock.exclusive(async () => {
      await expect(lock.run(() => 'sync')).rejects.toThrow(/use the tx object/);
      await tick();
      await expect(lock.run(() => 'after an await')).rejects.toThrow(/use the tx object/);
      await expect(helper()).rejects.toThrow(/use the tx object/);
      seen.push('body done');
    });
    expect(seen).toEqual(['body done']);
    // The lock is free again and works.
    await expect(lock.run(() => 42)).resolves.toBe(42);
  });

  it('refuses a nested exclusive section', async () => {
    const lock = new SqliteLock();
    await lock.exclusive(async () => {
      await tick();
      await expect(lock.exclusive(async () => 'nested')).rejects.toThrow(/nested transactions/);
    });
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

  it("one lock's holder calling another lock that is held waits for it instead of being refused", async () => {
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
