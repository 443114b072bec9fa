import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import { stockLedger as t } from '../sqlite/schema.js';
import type { LedgerRepo } from './contract.js';
import { ledgerRow } from './rows.js';

export function sqliteLedger(orm: SqliteOrm, run: Run): LedgerRepo {
  return {
    record: (movements) =>
      run(() => {
        let inserted = 0;
        // Chunks keep each statement under SQLite's bound-parameter limit.
        for (let i = 0; i < movements.length; i += 500) {
          const rows = movements.slice(i, i + 500).map(ledgerRow);
          inserted += orm
            .insert(t)
            .values(rows)
            .onConflictDoNothing({ target: [t.connection, t.dedupeKey] })
            .returning({ id: t.id })
            .all().length;
        }
        return inserted;
      }),

    totals: (connection, range) =>
      run(() =>
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
          .groupBy(t.productExternalCode, t.lotCode)
          .all(),
      ),

    list: (connection, q) =>
      run(() =>
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
          .limit(q.limit)
          .all(),
      ),
  };
}
