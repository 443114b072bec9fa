import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { AlertMessageState, AlertPhase } from '../values.js';

// Notification tables. Column for column the same as src/store/pg/alert-schema.ts
// (checked in src/store/schema-parity.ts).

const ts = (name: string) => integer(name, { mode: 'timestamp_ms' });

/** One row per alert kind and connection: what happened since its last message (docs/operations.md#notifications). */
export const alertGroups = sqliteTable(
  'alert_groups',
  {
    /** '' for the service as a whole (the job queue). */
    connection: text('connection').notNull(),
    kind: text('kind').notNull(),
    firing: integer('firing', { mode: 'boolean' }).notNull().default(false),
    /** A state (a breaker open, tokens failing): resolved when cleared, not when quiet. */
    sticky: integer('sticky', { mode: 'boolean' }).notNull().default(false),
    cleared: integer('cleared', { mode: 'boolean' }).notNull().default(false),
    /** Occurrences not yet told. */
    pending: integer('pending').notNull().default(0),
    /** Occurrences since it started firing. */
    total: integer('total').notNull().default(0),
    firstAt: ts('first_at').notNull(),
    lastAt: ts('last_at').notNull(),
    notifiedAt: ts('notified_at'),
    detail: text('detail').notNull(),
  },
  (t) => [primaryKey({ columns: [t.connection, t.kind] })],
);

/** One message to one target, sent by the alert loop with retries. */
export const alertMessages = sqliteTable(
  'alert_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    connection: text('connection').notNull(),
    kind: text('kind').notNull(),
    phase: text('phase').$type<AlertPhase>().notNull(),
    url: text('url').notNull(),
    format: text('format').notNull(),
    body: text('body').notNull(),
    state: text('state').$type<AlertMessageState>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    // The loop's claim reads only what waits to be sent.
    index('alert_messages_pending').on(t.nextAttemptAt, t.id).where(sql`state = 'pending'`),
    // Retention deletes by age.
    index('alert_messages_age').on(t.createdAt),
  ],
);
