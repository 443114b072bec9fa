import { asc, eq } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import { inboundAttempts as a, inboundEventEdits as e, inboundEvents as t } from '../sqlite/schema.js';
import type { InboxRepo } from './contract.js';

type History = Pick<InboxRepo, 'addEdit' | 'editsOf' | 'recordAttemptOutcome' | 'attemptsOf'>;

/** Corrections and processing attempts of inbound events. */
export function sqliteInboxHistory(orm: SqliteOrm, run: Run): History {
  return {
    addEdit: (edit) =>
      run(() => {
        const row = orm
          .insert(e)
          .values({
            eventId: edit.eventId,
            connection: edit.connection,
            actor: edit.actor,
            payload: edit.payload,
            changes: edit.changes,
            createdAt: edit.at,
          })
          .returning()
          .get();
        orm.update(t).set({ correction: edit.payload, updatedAt: edit.at }).where(eq(t.id, edit.eventId)).run();
        return row;
      }),

    editsOf: (eventId) => run(() => orm.select().from(e).where(eq(e.eventId, eventId)).orderBy(asc(e.id)).all()),

    recordAttemptOutcome: (attempt) =>
      run(() => {
        orm
          .insert(a)
          .values({
            eventId: attempt.eventId,
            connection: attempt.connection,
            outcome: attempt.outcome,
            error: attempt.error ?? null,
            createdAt: attempt.at,
          })
          .run();
      }),

    attemptsOf: (eventId) => run(() => orm.select().from(a).where(eq(a.eventId, eventId)).orderBy(asc(a.id)).all()),
  };
}
