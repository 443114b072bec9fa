import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { AuditOutcome } from '../values.js';

// Mirrors src/store/sqlite/audit-schema.ts column for column (checked in src/store/schema-parity.ts).

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Every operator action (admin API, console, CLI): who, when, what, on what, and how it ended. */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: ts('at').notNull(),
    operator: text('operator').notNull(),
    channel: text('channel').notNull(),
    action: text('action').notNull(),
    connection: text('connection'),
    target: text('target'),
    outcome: text('outcome').$type<AuditOutcome>().notNull(),
    detail: text('detail'),
  },
  (t) => [index('audit_entries_target').on(t.target, t.id), index('audit_entries_at').on(t.at)],
);
