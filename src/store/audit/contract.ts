import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/audit-schema.js';
import type { AuditChannel, AuditOutcome } from '../values.js';

export type AuditEntry = InferSelectModel<typeof tables.auditEntries>;

export interface NewAuditEntry {
  at: Date;
  operator: string;
  channel: AuditChannel;
  action: string;
  connection?: string | null;
  target?: string | null;
  outcome: AuditOutcome;
  detail?: string | null;
}

export interface AuditQuery {
  operator?: string;
  action?: string;
  connection?: string;
  target?: string;
  outcome?: AuditOutcome;
  /** At or after. */
  from?: Date;
  /** Before. */
  to?: Date;
  /** Newest first: entries with an id below this one. */
  beforeId?: number;
  limit: number;
}

/** The audit trail of operator actions (docs/console.md, "Operators and the audit trail"). */
export interface AuditRepo {
  record(entry: NewAuditEntry): Promise<AuditEntry>;
  /** A page, newest first; filters are checked on the rows (a few actions a day, not millions). */
  list(query: AuditQuery): Promise<AuditEntry[]>;
  /** Deletes entries recorded before `before` (only counts with `dryRun`). */
  prune(before: Date, dryRun: boolean): Promise<number>;
}
