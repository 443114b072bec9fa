import { count, desc, lt } from 'drizzle-orm';
import { auditEntries as t } from '../pg/audit-schema.js';
import type { PgOrm } from '../pg/database.js';
import type { AuditRepo } from './contract.js';
import { auditWhere } from './where.js';

export function pgAudit(orm: PgOrm): AuditRepo {
  return {
    record: async (entry) => {
      const [row] = await orm
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
        .returning();
      return row!;
    },

    list: (q) => orm.select().from(t).where(auditWhere(t, q)).orderBy(desc(t.id)).limit(q.limit),

    prune: async (before, dryRun) => {
      if (dryRun) {
        const [row] = await orm.select({ n: count() }).from(t).where(lt(t.at, before));
        return row?.n ?? 0;
      }
      const deleted = await orm.delete(t).where(lt(t.at, before)).returning({ id: t.id });
      return deleted.length;
    },
  };
}
