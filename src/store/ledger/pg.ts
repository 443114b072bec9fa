import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { stockLedger as t } from '../pg/schema.js';
import type { LedgerRepo } from './contract.js';
import { ledgerRow } from './rows.js';

export function pgLedger(orm: PgOrm): LedgerRepo {
  return {
    record: async (movements) => {
      if (movements.length === 0) return 0;
      const rows = await orm
        .insert(t)
        .values(movements.map(ledgerRow))
        .onConflictDoNothing({ target: [t.connection, t.dedupeKey] })
        .returning({ id: t.id });
      return rows.length;
    },

    totals: (connection, range) =>
      orm
        .select({
          productExternalCode: t.productExternalCode,
          lotCode: t.lotCode,
          quantity: sql<number>`sum(${t.quantity})`.mapWith(Number),
        })
        .from(t)
        .where(
          and(
            eq(t.connection, connection),
            range.from ? gt(t.movementTime, range.from) : undefined,
            range.to ? lte(t.movementTime, range.to) : undefined,
          ),
        )
        .groupBy(t.productExternalCode, t.lotCode),

    list: (connection, q) =>
      orm
        .select()
        .from(t)
        .where(
          and(
            eq(t.connection, connection),
            q.productExternalCode ? eq(t.productExternalCode, q.productExternalCode) : undefined,
          ),
        )
        .orderBy(desc(t.id))
        .limit(q.limit),
  };
}
