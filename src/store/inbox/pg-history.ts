import { asc, eq } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { inboundAttempts as a, inboundEventEdits as e, inboundEvents as t } from '../pg/schema.js';
import type { InboxRepo } from './contract.js';

type History = Pick<InboxRepo, 'addEdit' | 'editsOf' | 'recordAttemptOutcome' | 'attemptsOf'>;

/** Corrections and processing attempts of inbound events. */
export function pgInboxHistory(orm: PgOrm): History {
  return {
    addEdit: async (edit) => {
      const [row] = await orm
        .insert(e)
        .values({
          eventId: edit.eventId,
          connection: edit.connection,
          actor: edit.actor,
          payload: edit.payload,
          changes: edit.changes,
          createdAt: edit.at,
        })
        .returning();
      await orm.update(t).set({ correction: edit.payload, updatedAt: edit.at }).where(eq(t.id, edit.eventId));
      return row!;
    },

    editsOf: (eventId) => orm.select().from(e).where(eq(e.eventId, eventId)).orderBy(asc(e.id)),

    recordAttemptOutcome: async (attempt) => {
      await orm.insert(a).values({
        eventId: attempt.eventId,
        connection: attempt.connection,
        outcome: attempt.outcome,
        error: attempt.error ?? null,
        createdAt: attempt.at,
      });
    },

    attemptsOf: (eventId) => orm.select().from(a).where(eq(a.eventId, eventId)).orderBy(asc(a.id)),
  };
}
