import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { JobState } from '../types.js';

// The embedded queue's tables, in the same SQLite file as the store so that an inbox row and
// its job commit in one transaction. Times are epoch milliseconds.

export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    data: text('data').notNull(),
    state: text('state').$type<JobState>().notNull(),
    policy: text('policy').$type<'standard' | 'stately'>().notNull(),
    retryLimit: integer('retry_limit').notNull(),
    retryCount: integer('retry_count').notNull().default(0),
    retryDelay: integer('retry_delay').notNull(),
    retryBackoff: integer('retry_backoff', { mode: 'boolean' }).notNull(),
    expireInSeconds: integer('expire_in_seconds').notNull(),
    // '' = no key; NOT NULL so the stately unique index needs no expression (drizzle-kit
    // mangles expression indexes on SQLite).
    singletonKey: text('singleton_key').notNull().default(''),
    startAfter: integer('start_after').notNull(),
    startedAt: integer('started_at'),
    leaseUntil: integer('lease_until'),
    output: text('output'),
    createdAt: integer('created_at').notNull(),
    completedAt: integer('completed_at'),
  },
  (t) => [
    // Ready jobs are a range of this index (start_after <= now), so held and backing-off jobs
    // cost a fetch nothing: on (name, id) every fetch stepped over each of them first.
    index('jobs_fetch').on(t.name, t.startAfter, t.id).where(sql`state IN ('created', 'retry')`),
    index('jobs_lease').on(t.leaseUntil).where(sql`state = 'active'`),
    index('jobs_finished').on(t.state, t.completedAt).where(sql`state IN ('completed', 'failed', 'cancelled')`),
    // Same rule as pg-boss's stately policy: one job per key in each of created, retry, active.
    uniqueIndex('jobs_stately')
      .on(t.name, t.state, t.singletonKey)
      .where(sql`policy = 'stately' AND state IN ('created', 'retry', 'active')`),
  ],
);

export const queues = sqliteTable('job_queues', {
  name: text('name').primaryKey(),
  policy: text('policy').$type<'standard' | 'stately'>().notNull(),
  retryLimit: integer('retry_limit'),
  retryDelay: integer('retry_delay'),
  retryBackoff: integer('retry_backoff', { mode: 'boolean' }),
  expireInSeconds: integer('expire_in_seconds'),
  createdAt: integer('created_at').notNull(),
});

export const schedules = sqliteTable('job_schedules', {
  name: text('name').primaryKey(),
  cron: text('cron').notNull(),
  data: text('data').notNull(),
  tz: text('tz'),
  lastFiredAt: integer('last_fired_at'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
