import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { AuditOutcome } from '../values.js';

// Column names and inferred row types match src/store/pg/audit-schema.ts (src/store/schema-parity.ts).

const ts = (name: string) => integer(name, { mode: 'timestamp_ms' });

/** Every operator action (admin API, console, CLI): who, when, what, on what, and how it ended. */
export const auditEntries = sqliteTable(
  'audit_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: ts('at').notNull(),
    operator: text('operator').notNull(),
    /** How the operator reached us: `api` (a bearer token), `console`, `cli`. */
    channel: text('channel').notNull(),
    action: text('action').notNull(),
    connection: text('connection'),
    /** What was acted on, as `kind:id` (`event:12`, `delivery:3`, `filter`). */
    target: text('target'),
    outcome: text('outcome').$type<AuditOutcome>().notNull(),
    /** Plain words: the operator's reason, the counts of a bulk action, why it was refused. */
    detail: text('detail'),
  },
  (t) => [
    // The event page's "operator actions" block: one target's entries, newest first.
    index('audit_entries_target').on(t.target, t.id),
    // Retention deletes by age.
    index('audit_entries_at').on(t.at),
  ],
);
