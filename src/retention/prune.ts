import type { Clock } from '../lib/clock.js';
import type { Config } from '../lib/config.js';
import type { Logger } from '../lib/logger.js';
import type { Store } from '../store/index.js';
import { type PruneCounts, type PruneStep, pruneSteps } from './steps.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PruneResult {
  step: string;
  setting: string;
  days: number;
  cutoff: Date;
  counts: PruneCounts;
}

export interface PruneDeps {
  store: Store;
  clock: Clock;
  config: Config;
  logger: Logger;
}

/**
 * Runs every prune step with its own cutoff (now minus its setting's days), one after the other.
 * Each step is idempotent and works in chunks, so a prune stopped halfway is finished by the next.
 */
export async function runPrune(
  deps: PruneDeps,
  options: { dryRun?: boolean; steps?: readonly PruneStep[] } = {},
): Promise<PruneResult[]> {
  const dryRun = options.dryRun ?? false;
  const now = deps.clock.nowMs();
  const results: PruneResult[] = [];
  for (const step of options.steps ?? pruneSteps) {
    const days = step.days(deps.config);
    const cutoff = new Date(now - days * DAY_MS);
    const counts = await step.prune(deps.store, cutoff, dryRun);
    deps.logger.info(
      { step: step.name, cutoff: cutoff.toISOString(), dryRun, ...counts },
      dryRun ? 'prune (dry run)' : 'pruned',
    );
    results.push({ step: step.name, setting: step.setting, days, cutoff, counts });
  }
  return results;
}
