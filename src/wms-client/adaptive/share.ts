import type { LimitRules, LimitState, Sample } from './rules.js';

/** A finished call as the shared budget records it: what happened and when. */
export interface TimedSample {
  sample: Sample;
  atMs: number;
}

/**
 * Where the limit of one connection lives when several processes share it (Postgres): each process
 * hands over the samples it saw since the last exchange and its demand (calls in flight and
 * waiting), and gets back the shared state after them, its share of the limit and its fraction of
 * the pace (the same proportion, unrounded, so the parts of the pace add up to it). A process that
 * stops exchanging drops out after its lease, so its share goes back to the others.
 */
export interface SharedBudget {
  exchange(input: {
    connection: string;
    holder: string;
    samples: TimedSample[];
    demand: number;
    nowMs: number;
    rules: LimitRules;
  }): Promise<{ state: LimitState; share: number; fraction?: number }>;
  /** Gives the process's share back at once (a clean stop). */
  leave(connection: string, holder: string): Promise<void>;
}

/**
 * A holder's share of `permits`: in proportion to its demand; an equal part while nobody has any
 * (so a process whose work arrives between two exchanges cannot take the whole limit); at least
 * one, so no process ever stalls (with more holders than permits the sum may exceed the limit by
 * that rounding).
 */
export function shareOf(permits: number, demand: number, totalDemand: number, holders: number): number {
  if (totalDemand <= 0) return Math.max(1, Math.floor(permits / Math.max(1, holders)));
  if (demand >= totalDemand) return permits;
  if (demand <= 0) return 1;
  return Math.max(1, Math.floor((permits * demand) / totalDemand));
}

/** A holder's part of the connection's pace (calls per second): its demand's proportion, unrounded. */
export function fractionOf(demand: number, totalDemand: number, holders: number): number {
  if (totalDemand <= 0) return 1 / Math.max(1, holders);
  return Math.min(1, Math.max(0, demand) / totalDemand);
}
