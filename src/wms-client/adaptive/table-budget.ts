import { initialState, type LimitRules, type LimitState, onSample, permits } from './rules.js';
import { fractionOf, type SharedBudget, shareOf } from './share.js';

/** What the store offers for a shared budget (src/store/limit-budgets/contract.ts), seen from here. */
export interface BudgetTable {
  exchange<S>(input: {
    connection: string;
    holder: string;
    demand: number;
    now: Date;
    leaseMs: number;
    update(state: S | null): S;
  }): Promise<{ state: S; totalDemand: number; holders: number }>;
  leave(connection: string, holder: string): Promise<void>;
}

/**
 * A budget kept in the database: each exchange applies the holder's samples to the stored state in
 * the order they happened (under the row's lock), so the deployment's processes run one limit,
 * and each gets a share of it in proportion to its demand. A crashed process's lease runs out
 * after `leaseMs` and its share goes back to the others.
 */
export function tableBudget(table: BudgetTable, options: { leaseMs?: number } = {}): SharedBudget {
  const leaseMs = options.leaseMs ?? 5000;
  return {
    exchange: async ({ connection, holder, samples, demand, nowMs, rules }) => {
      const result = await table.exchange<LimitState>({
        connection,
        holder,
        demand,
        now: new Date(nowMs),
        leaseMs,
        update: (stored) => {
          // A changed WMS_MAX_CONCURRENCY applies to the stored limit at once.
          let state = stored
            ? { ...stored, limit: Math.min(rules.max, Math.max(rules.min, stored.limit)) }
            : initialState(rules, nowMs);
          for (const { sample, atMs } of samples) state = onSample(rules, state, sample, atMs);
          return state;
        },
      });
      return {
        state: result.state,
        share: shareOf(permits(result.state), demand, result.totalDemand, result.holders),
        fraction: fractionOf(demand, result.totalDemand, result.holders),
      };
    },
    leave: (connection, holder) => table.leave(connection, holder),
  };
}

export type { LimitRules };
