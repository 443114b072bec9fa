import { and, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { auditEntries as pgTable } from '../pg/audit-schema.js';
import type { auditEntries as sqliteTable } from '../sqlite/audit-schema.js';
import type { AuditQuery } from './contract.js';

/** The filter of an audit page, the same on both dialects. */
export function auditWhere(t: typeof sqliteTable | typeof pgTable, q: AuditQuery): SQL | undefined {
  return and(
    q.operator ? eq(t.operator, q.operator) : undefined,
    q.action ? eq(t.action, q.action) : undefined,
    q.connection ? eq(t.connection, q.connection) : undefined,
    q.target ? eq(t.target, q.target) : undefined,
    q.outcome ? eq(t.outcome, q.outcome) : undefined,
    q.from ? gte(t.at, q.from) : undefined,
    q.to ? lt(t.at, q.to) : undefined,
    q.beforeId !== undefined ? lt(t.id, q.beforeId) : undefined,
  );
}
