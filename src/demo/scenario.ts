import { DemoHarness, type DemoTargets } from './harness.js';
import { erpRefusal } from './step-erp-refusal.js';
import {
  clientReturn,
  expedition,
  purchaseOrder,
  reconciliation,
  regularizations,
  type ScenarioCodes,
  scenarioCodes,
} from './steps.js';

const STEPS: { title: string; run: (h: DemoHarness, c: ScenarioCodes) => Promise<void> }[] = [
  { title: 'Purchase order received with a shortage, a surplus and a product not ordered', run: purchaseOrder },
  { title: 'Client expedition picked, packed into two packings and dispatched', run: expedition },
  { title: 'Client return received', run: clientReturn },
  { title: 'Stock regularizations, the second one with its webhook lost', run: regularizations },
  { title: 'Reconciliation finds exactly the lost movement', run: reconciliation },
  {
    title: 'The ERP refuses a reception: the warehouse operator sees why, and re-sends once it is fixed',
    run: erpRefusal,
  },
];

export interface ScenarioResult {
  ok: boolean;
  failures: string[];
}

/**
 * The demo scenario over HTTP only: the ERP side through the service's ERP API, the warehouse side
 * through the emulator's control API, every outcome read back from the ERP feed.
 */
export async function runScenario(
  targets: DemoTargets,
  out: (line: string) => void,
  options: { timeoutMs?: number; run?: string } = {},
): Promise<ScenarioResult> {
  const h = new DemoHarness(targets, out, options.timeoutMs);
  const codes = scenarioCodes(options.run ?? Date.now().toString(36).toUpperCase());
  await h.skipExistingEvents();
  for (const [i, step] of STEPS.entries()) {
    out(`\n${i + 1}. ${step.title}`);
    try {
      await step.run(h, codes);
    } catch (err) {
      h.check(false, `${step.title}: ${(err as Error).message}`);
      break;
    }
  }
  return { ok: h.failures.length === 0, failures: h.failures };
}
