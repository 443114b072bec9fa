import { and, eq, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { erpDeliveryBreakers as b } from '../pg/delivery-schema.js';
import type { BreakerRow, ErpDeliveriesRepo } from './contract.js';

/** The stored circuit breaker of each connection's ERP endpoint, shared by every process. */
export function pgBreakers(
  orm: PgOrm,
  tx: <T>(fn: (o: PgOrm) => Promise<T>) => Promise<T>,
): Pick<ErpDeliveriesRepo, 'breakers' | 'updateBreaker' | 'takeProbe'> {
  return {
    breakers: () => orm.select().from(b),

    updateBreaker: (connection, step, at) =>
      tx(async (o) => {
        await o.insert(b).values({ connection, state: 'closed', failures: 0, updatedAt: at }).onConflictDoNothing();
        const result = await o.execute<{
          state: BreakerRow['state'];
          failures: number;
          opened_at: Date | string | null;
          next_probe_at: Date | string | null;
        }>(
          sql`SELECT state, failures, opened_at, next_probe_at FROM erp_delivery_breakers WHERE connection = ${connection} FOR UPDATE`,
        );
        const row = result.rows[0]!;
        const date = (v: Date | string | null) => (v === null ? null : new Date(v));
        const next = step({
          state: row.state,
          failures: Number(row.failures),
          openedAt: date(row.opened_at),
          nextProbeAt: date(row.next_probe_at),
        });
        await o
          .update(b)
          .set({ ...next, updatedAt: at })
          .where(eq(b.connection, connection));
        return next;
      }),

    takeProbe: async (connection, now, nextProbeAt) => {
      const r = await orm
        .update(b)
        .set({ nextProbeAt, updatedAt: now })
        .where(and(eq(b.connection, connection), eq(b.state, 'open'), sql`${b.nextProbeAt} <= ${now}`))
        .returning({ connection: b.connection });
      return r.length === 1;
    },
  };
}
