import { alertJobs } from './alerts/jobs.js';
import type { JobRegistration, ServiceDeps } from './deps.js';
import { deliveryJobs } from './erp/delivery/jobs.js';
import { inboundJobs } from './inbound/jobs.js';
import { wmsPushJobs } from './push/jobs.js';
import { reconcileJobs } from './reconcile/jobs.js';
import { retentionJobs } from './retention/jobs.js';

/**
 * A room's jobs: queues it creates and handlers it runs. Each room exports one of these; the
 * worker role registers them all. Kept as a list so `serve` and `worker` run the same set.
 */
export const jobRegistrations: JobRegistration[] = [
  inboundJobs,
  wmsPushJobs,
  reconcileJobs,
  retentionJobs,
  deliveryJobs,
  alertJobs,
];

export async function startWorkers(
  deps: ServiceDeps,
  registrations: JobRegistration[] = jobRegistrations,
): Promise<void> {
  for (const r of registrations) {
    await r.register(deps);
    deps.logger.debug({ jobs: r.name }, 'jobs registered');
  }
}
