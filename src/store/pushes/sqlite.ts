import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { SqliteDatabase, SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import { wmsPushes as t } from '../sqlite/schema.js';
import { PUSH_STATES } from '../values.js';
import type { PushesRepo, PushUpsert } from './contract.js';
import { sqliteBatchedPushes } from './sqlite-batched.js';
import type { PushesStatements } from './sqlite-statements.js';
import { sqlitePushWaits } from './sqlite-waits.js';

/** Codes per IN list, well under SQLite's limit of host parameters. */
const CHUNK = 500;

/** `batchedOn`: outside a transaction, the push path's writes of concurrent pushes share one transaction (sqlite-batched.ts). */
export function sqlitePushes(
  orm: SqliteOrm,
  run: Run,
  statements: () => PushesStatements,
  batchedOn?: SqliteDatabase['raw'],
): PushesRepo {
  const s = statements;
  const byId = (id: number) => s().byId.get({ id });
  const upsertOne = (input: PushUpsert) => {
    const key = { connection: input.connection, entity: input.entity, code: input.externalCode };
    const existing = s().byKey.get(key);
    if (existing && existing.payloadHash === input.payloadHash && existing.state !== 'failed') {
      return { record: existing, changed: false };
    }
    const record = s().upsert.get({
      ...key,
      payload: JSON.stringify(input.payload),
      hash: input.payloadHash,
      at: input.at.getTime(),
    })!;
    return { record, changed: true };
  };
  const repo: PushesRepo = {
    ...sqlitePushWaits(orm, run, statements),
    upsert: (input) => run(() => upsertOne(input)),

    // SQLite runs each statement in microseconds: the loop over prepared statements is the fast form.
    upsertMany: (inputs) => run(() => inputs.map(upsertOne)),

    get: (connection, entity, externalCode) => run(() => s().byKey.get({ connection, entity, code: externalCode })),

    getById: (id) => run(() => byId(id)),

    recordAttempt: (id, at) => run(() => s().recordAttempt.get({ id, at: at.getTime() })?.attempts ?? 0),

    markSynced: (id, pushedHash, at, owner) =>
      run(() => s().markSynced.get({ id, hash: pushedHash, at: at.getTime(), owner: owner ?? null })),

    markFailed: (id, error, at, forHash) =>
      run(() => {
        orm
          .update(t)
          .set({ state: 'failed', lastError: error ?? null, updatedAt: at })
          .where(and(eq(t.id, id), forHash !== undefined ? eq(t.payloadHash, forHash) : undefined))
          .run();
      }),

    markPending: (id, at) =>
      run(() => orm.update(t).set({ state: 'pending', updatedAt: at }).where(eq(t.id, id)).run().changes > 0),

    list: (q) =>
      run(() =>
        orm
          .select()
          .from(t)
          .where(
            and(
              eq(t.connection, q.connection),
              q.entity ? eq(t.entity, q.entity) : undefined,
              q.state ? eq(t.state, q.state) : undefined,
              q.afterId ? gt(t.id, q.afterId) : undefined,
            ),
          )
          .orderBy(asc(t.id))
          .limit(q.limit)
          .all(),
      ),

    getMany: (connection, entity, externalCodes) =>
      run(() => {
        const out = [];
        for (let i = 0; i < externalCodes.length; i += CHUNK) {
          const codes = externalCodes.slice(i, i + CHUNK);
          out.push(
            ...orm
              .select()
              .from(t)
              .where(and(eq(t.connection, connection), eq(t.entity, entity), inArray(t.externalCode, codes)))
              .all(),
          );
        }
        return out;
      }),

    noteError: (id, error, at) =>
      run(() => {
        orm
          .update(t)
          .set({ lastError: error ?? null, updatedAt: at })
          .where(eq(t.id, id))
          .run();
      }),

    claim: (id, owner, until, at) => run(() => s().claim.get({ id, owner, until: until.getTime(), at: at.getTime() })),

    release: (id, owner) => run(() => s().release.get({ id, owner }) ?? byId(id)),

    stateSummary: () =>
      run(() => {
        const counts = Object.fromEntries(PUSH_STATES.map((state) => [state, 0])) as Record<
          (typeof PUSH_STATES)[number],
          number
        >;
        for (const r of orm.select({ state: t.state, n: sql<number>`count(*)` }).from(t).groupBy(t.state).all())
          counts[r.state] = Number(r.n);
        const oldest = orm
          .select({ at: sql<number | null>`min(${t.updatedAt})` })
          .from(t)
          .where(eq(t.state, 'pending'))
          .get()?.at;
        return { counts, oldestPendingChange: oldest === null || oldest === undefined ? null : new Date(oldest) };
      }),

    summarize: (ids) =>
      run(() => {
        const counts = Object.fromEntries(PUSH_STATES.map((state) => [state, 0])) as Record<
          (typeof PUSH_STATES)[number],
          number
        >;
        for (const r of s().summarize.all({ ids: JSON.stringify(ids) })) counts[r.state] = Number(r.n);
        return counts;
      }),
  };
  return batchedOn ? { ...repo, ...sqliteBatchedPushes(batchedOn, run, statements) } : repo;
}
