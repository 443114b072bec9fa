import { and, eq, getTableColumns, isNull, or, type SQL, sql } from 'drizzle-orm';
import { batcher } from '../../lib/batcher.js';
import type { PgOrm } from '../pg/database.js';
import { wmsPushes as t, wmsPushWaits as w } from '../pg/schema.js';
import type { PushesRepo, PushRecord, PushRef } from './contract.js';

type Batched = Pick<
  PushesRepo,
  'claim' | 'release' | 'recordAttempt' | 'markSynced' | 'hasWaiters' | 'getMany' | 'setWaits'
>;

/** A document's references are a handful; big look-ups (the intake's) go on their own. */
const SMALL_LOOKUP = 50;

/** Runs of one statement at once: two, so a batch gathers while the last one is on the wire (or, for the lingering marks, while it lingers). */
const IN_FLIGHT = 2;
const MAX_BATCH = 500;

/**
 * The marks that follow a WMS answer come one at a time (answers arrive spread over time, about
 * 550 a second per process in `bench:push`'s run c), so without a wait each run carried two and
 * every second push paid a statement, a commit and a loopback write of its own (`pg_stat_statements`:
 * 7,977 `markSynced` runs and 7,227 `hasWaiters` for 16,000 pushes). Waiting 10 ms for company
 * makes them four times fewer. It costs no WMS capacity: the call's place in the limit was given
 * back when the answer arrived. A push's lease ends up to 10 ms later and its job up to 20 ms later
 * (the two marks wait one after the other): a dozen more jobs in flight per process at that rate.
 */
const MARK_LINGER_MS = 10;

/** An array placeholder, cast (a statement prepared once takes each batch's arrays as parameters). */
const arr = (name: string, type: string): SQL => sql`${sql.placeholder(name)}::${sql.raw(type)}[]`;

/**
 * The rows of the batch's ids, locked in id order before the statement updates them: two batches
 * touching the same records (two processes, or a job and its duplicate) then wait for each other
 * instead of deadlocking, as single-row updates never could.
 */
const lockedInOrder = sql`${t.id} IN (SELECT ${t.id} FROM ${t} WHERE ${t.id} = ANY(${arr('ids', 'bigint')}) ORDER BY ${t.id} FOR UPDATE)`;

/** Rows keyed by (connection, entity, external code) among the batch's arrays. */
const amongKeys = (c: SQL, e: SQL, x: SQL): SQL =>
  sql`(${c}, ${e}, ${x}) IN (SELECT * FROM unnest(${arr('connections', 'text')}, ${arr('entities', 'text')}, ${arr('codes', 'text')}))`;

/**
 * The batched statements, built and named once (on first use): drizzle does not build them again
 * per batch, and Postgres parses and plans each once per connection. Building them per batch was
 * about 6 % of a `worker` process's CPU in `bench:push`'s run c (CPU profile), beside Postgres's
 * own parse and plan of each.
 */
function batchedStatements(orm: PgOrm) {
  const columns = getTableColumns(t);
  return {
    claim: orm
      .update(t)
      .set({ lockedBy: sql`v.owner`, lockedUntil: sql`v.until` })
      .from(
        sql`unnest(${arr('ids', 'bigint')}, ${arr('owners', 'text')}, ${arr('untils', 'timestamptz')}, ${arr('ats', 'timestamptz')}) AS v(id, owner, until, at)`,
      )
      .where(and(sql`${t.id} = v.id`, or(isNull(t.lockedBy), sql`${t.lockedUntil} < v.at`), lockedInOrder))
      .returning(columns)
      .prepare('wms_sync_pushes_claim_many'),
    release: orm
      .update(t)
      .set({ lockedBy: null, lockedUntil: null })
      .from(sql`unnest(${arr('ids', 'bigint')}, ${arr('owners', 'text')}) AS v(id, owner)`)
      .where(and(sql`${t.id} = v.id`, sql`${t.lockedBy} = v.owner`, lockedInOrder))
      .returning(columns)
      .prepare('wms_sync_pushes_release_many'),
    recordAttempt: orm
      .update(t)
      .set({ attempts: sql`${t.attempts} + 1`, lastPushedAt: sql`v.at`, updatedAt: sql`v.at` })
      .from(sql`unnest(${arr('ids', 'bigint')}, ${arr('ats', 'timestamptz')}) AS v(id, at)`)
      .where(and(sql`${t.id} = v.id`, lockedInOrder))
      .returning({ id: t.id, attempts: t.attempts })
      .prepare('wms_sync_pushes_record_attempt_many'),
    markSynced: orm
      .update(t)
      .set({
        syncedHash: sql`v.hash`,
        // A newer payload is pending even if an overlapping push marked it synced (see the SQLite adapter).
        state: sql`CASE WHEN ${t.payloadHash} = v.hash THEN 'synced' ELSE 'pending' END`,
        lastError: null,
        updatedAt: sql`v.at`,
        // Only the owner gives the lease back (no owner, no change).
        lockedBy: sql`CASE WHEN ${t.lockedBy} = v.owner THEN NULL ELSE ${t.lockedBy} END`,
        lockedUntil: sql`CASE WHEN ${t.lockedBy} = v.owner THEN NULL ELSE ${t.lockedUntil} END`,
      })
      .from(
        sql`unnest(${arr('ids', 'bigint')}, ${arr('hashes', 'text')}, ${arr('ats', 'timestamptz')}, ${arr('owners', 'text')}) AS v(id, hash, at, owner)`,
      )
      .where(and(sql`${t.id} = v.id`, lockedInOrder))
      .returning(columns)
      .prepare('wms_sync_pushes_mark_synced_many'),
    hasWaiters: orm
      .selectDistinct({ connection: w.connection, entity: w.entity, externalCode: w.externalCode })
      .from(w)
      .where(amongKeys(sql`${w.connection}`, sql`${w.entity}`, sql`${w.externalCode}`))
      .prepare('wms_sync_pushes_has_waiters_many'),
    lookUp: orm
      .select()
      .from(t)
      .where(amongKeys(sql`${t.connection}`, sql`${t.entity}`, sql`${t.externalCode}`))
      .prepare('wms_sync_pushes_look_up_many'),
    clearWaits: orm
      .delete(w)
      .where(sql`${w.recordId} = ANY(${arr('ids', 'bigint')})`)
      .prepare('wms_sync_pushes_clear_waits_many'),
  };
}

const iso = (d: Date) => d.toISOString();

/**
 * The push path's statements on the pool (not in a transaction), each shared by the pushes running
 * at once: 200 jobs in flight claim, count an attempt, mark synced, look for waiters and release
 * in a handful of statements instead of 1,000 (`src/lib/batcher.ts`); a document's look-ups of its
 * references and the clearing of its waits too. Each row is still decided
 * on its own, as the single-row statements did: a lease is taken only where it is free or ran out
 * (of two jobs claiming one record in one batch, one gets it), released only by its owner.
 */
export function pgBatchedPushes(orm: PgOrm, direct: Pick<PushesRepo, 'getMany' | 'setWaits'>): Batched {
  const byId = async (id: number) => (await orm.select().from(t).where(eq(t.id, id)))[0];
  let built: ReturnType<typeof batchedStatements> | undefined;
  const st = () => (built ??= batchedStatements(orm));
  const opts = { maxInFlight: IN_FLIGHT, maxBatch: MAX_BATCH };
  const byKey = <I extends { id: number }>() => ({ ...opts, key: (i: I) => i.id });

  const claim = batcher<{ id: number; owner: string; until: Date; at: Date }, PushRecord | undefined>(
    async (inputs) => {
      // The same record twice in one batch: the statement's join picks one; the caller learns which by the owner.
      const rows = await st().claim.execute({
        ids: inputs.map((i) => i.id),
        owners: inputs.map((i) => i.owner),
        untils: inputs.map((i) => iso(i.until)),
        ats: inputs.map((i) => iso(i.at)),
      });
      const won = new Map(rows.map((r) => [`${r.id}\u0001${r.lockedBy}`, r as PushRecord]));
      return inputs.map((i) => won.get(`${i.id}\u0001${i.owner}`));
    },
    opts,
  );

  const release = batcher<{ id: number; owner: string }, PushRecord | undefined>(async (inputs) => {
    const rows = await st().release.execute({ ids: inputs.map((i) => i.id), owners: inputs.map((i) => i.owner) });
    const released = new Map(rows.map((r) => [r.id, r as PushRecord]));
    // Not ours any more (rare): the record as it is, as the single-row release answers.
    return Promise.all(inputs.map(async (i) => released.get(i.id) ?? byId(i.id)));
  }, byKey());

  const recordAttempt = batcher<{ id: number; at: Date }, number>(async (inputs) => {
    const rows = await st().recordAttempt.execute({ ids: inputs.map((i) => i.id), ats: inputs.map((i) => iso(i.at)) });
    const attempts = new Map(rows.map((r) => [r.id, r.attempts]));
    return inputs.map((i) => attempts.get(i.id) ?? 0);
  }, byKey());

  const markSynced = batcher<{ id: number; hash: string; at: Date; owner: string | null }, PushRecord | undefined>(
    async (inputs) => {
      const rows = await st().markSynced.execute({
        ids: inputs.map((i) => i.id),
        hashes: inputs.map((i) => i.hash),
        ats: inputs.map((i) => iso(i.at)),
        owners: inputs.map((i) => i.owner),
      });
      const after = new Map(rows.map((r) => [r.id, r as PushRecord]));
      return inputs.map((i) => after.get(i.id));
    },
    { ...byKey<{ id: number }>(), lingerMs: MARK_LINGER_MS },
  );

  const key = (connection: string, entity: string, code: string) => `${connection}\u0001${entity}\u0001${code}`;

  // A read, run after each caller's own mark committed: a waiter registering meanwhile still finds
  // the record synced when it looks again (see `wakeWaiters`), as with one read per push.
  const hasWaiters = batcher<{ connection: string; target: PushRef }, boolean>(
    async (inputs) => {
      const rows = await st().hasWaiters.execute({
        connections: inputs.map((i) => i.connection),
        entities: inputs.map((i) => i.target.entity),
        codes: inputs.map((i) => i.target.externalCode),
      });
      const found = new Set(rows.map((r) => key(r.connection, r.entity, r.externalCode)));
      return inputs.map((i) => found.has(key(i.connection, i.target.entity, i.target.externalCode)));
    },
    { ...opts, lingerMs: MARK_LINGER_MS },
  );

  // A read, run after each caller's own writes committed (a waiter's second look comes after its waits are stored).
  const lookUp = batcher<{ connection: string; entity: PushRef['entity']; codes: readonly string[] }, PushRecord[]>(
    async (inputs) => {
      const keys = inputs.flatMap((i) => i.codes.map((code) => ({ connection: i.connection, entity: i.entity, code })));
      const rows = await st().lookUp.execute({
        connections: keys.map((k) => k.connection),
        entities: keys.map((k) => k.entity),
        codes: keys.map((k) => k.code),
      });
      const found = new Map(rows.map((r) => [key(r.connection, r.entity, r.externalCode), r as PushRecord]));
      return inputs.map((i) => i.codes.flatMap((code) => found.get(key(i.connection, i.entity, code)) ?? []));
    },
    opts,
  );

  // Only the job holding a record's lease writes its waits, and it waits for this to finish.
  const clearWaits = batcher<number, undefined>(async (recordIds) => {
    await st().clearWaits.execute({ ids: recordIds });
    return recordIds.map(() => undefined);
  }, opts);

  return {
    getMany: (connection, entity, codes) =>
      codes.length > 0 && codes.length <= SMALL_LOOKUP
        ? lookUp.submit({ connection, entity, codes: [...new Set(codes)] })
        : direct.getMany(connection, entity, codes),
    setWaits: async (recordId, connection, targets, at) => {
      if (targets.length > 0) return direct.setWaits(recordId, connection, targets, at);
      await clearWaits.submit(recordId);
      return undefined;
    },
    claim: (id, owner, until, at) => claim.submit({ id, owner, until, at }),
    release: (id, owner) => release.submit({ id, owner }),
    recordAttempt: (id, at) => recordAttempt.submit({ id, at }),
    markSynced: (id, pushedHash, at, owner) => markSynced.submit({ id, hash: pushedHash, at, owner: owner ?? null }),
    hasWaiters: (connection, target) => hasWaiters.submit({ connection, target }),
  };
}
