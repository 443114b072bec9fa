import { count, desc, lt } from 'drizzle-orm';
import { auditEntries as t } from '../sqlite/audit-schema.js';
import type { SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import type { AuditRepo } from './contract.js';
import { auditWhere } from './where.js';

export function sqliteAudit(orm: SqliteOrm, run: Run): AuditRepo {
  return {
    record: (entry) =>
      run(() =>
        orm
          .insert(t)
          .values({
            at: entry.at,
            operator: entry.operator,
            channel: entry.channel,
            action: entry.action,
            connection: entry.connection ?? null,
            target: entry.target ?? null,
            outcome: entry.outcome,
            detail: entry.detail ?? null,
          })
          .returning()
          .get(),
      ),

    list: (q) => run(() => orm.select().from(t).where(auditWhere(t, q)).orderBy(desc(t.id)).limit(q.limit).all()),

    prune: (before, dryRun) =>
      run(() =>
        dryRun
          ? (orm.select({ n: count() }).from(t).where(lt(t.at, before)).get()?.n ?? 0)
          : orm.delete(t).where(lt(t.at, before)).run().changes,
      ),
  };
}
