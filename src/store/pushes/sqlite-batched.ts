import { batcher } from '../../lib/batcher.js';
import type { SqliteDatabase } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import type { PushesRepo, PushRecord } from './contract.js';
import type { PushesStatements } from './sqlite-statements.js';

type Batched = Pick<PushesRepo, 'claim' | 'release' | 'recordAttempt' | 'markSynced'>;

/**
 * The push path's writes on the store (not in a transaction), one transaction per turn of the event
 * loop for all the pushes running at once (`src/lib/batcher.ts`). Each autocommitted statement
 * wrote its pages to the WAL again: a push marked synced rewrote the table's page and three
 * indexes' (state, state and age, list), about 16 KB, for one row. The statements are the same
 * prepared one-row statements, run one after another inside the transaction, so each row is
 * decided exactly as before (of two claims of one record, the second finds it held).
 */
export function sqliteBatchedPushes(raw: SqliteDatabase['raw'], run: Run, statements: () => PushesStatements): Batched {
  const s = statements;
  // Synchronous from BEGIN to COMMIT: nothing else runs on the connection in between.
  const inTransaction = <T>(fn: () => T): Promise<T> =>
    run(() => {
      raw.exec('BEGIN IMMEDIATE');
      try {
        const result = fn();
        raw.exec('COMMIT');
        return result;
      } catch (err) {
        if (raw.inTransaction) raw.exec('ROLLBACK');
        throw err;
      }
    });
  const batched = <I, O>(one: (input: I) => O) =>
    batcher<I, O>((inputs) => inTransaction(() => inputs.map(one)), { maxInFlight: 1, maxBatch: 500 });

  const claim = batched((i: { id: number; owner: string; until: Date; at: Date }): PushRecord | undefined =>
    s().claim.get({ id: i.id, owner: i.owner, until: i.until.getTime(), at: i.at.getTime() }),
  );
  const release = batched(
    (i: { id: number; owner: string }): PushRecord | undefined =>
      s().release.get({ id: i.id, owner: i.owner }) ?? s().byId.get({ id: i.id }),
  );
  const recordAttempt = batched(
    (i: { id: number; at: Date }): number => s().recordAttempt.get({ id: i.id, at: i.at.getTime() })?.attempts ?? 0,
  );
  const markSynced = batched(
    (i: { id: number; hash: string; at: Date; owner: string | null }): PushRecord | undefined =>
      s().markSynced.get({ id: i.id, hash: i.hash, at: i.at.getTime(), owner: i.owner }),
  );
  return {
    claim: (id, owner, until, at) => claim.submit({ id, owner, until, at }),
    release: (id, owner) => release.submit({ id, owner }),
    recordAttempt: (id, at) => recordAttempt.submit({ id, at }),
    markSynced: (id, pushedHash, at, owner) => markSynced.submit({ id, hash: pushedHash, at, owner: owner ?? null }),
  };
}
