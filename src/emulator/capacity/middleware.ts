import type { MiddlewareHandler } from 'hono';
import { WmsApiError } from '../errors.js';
import type { EmulatorEnv } from '../http/env.js';
import { entityOf } from '../http/zones.js';
import type { CapacityRegistry } from './registry.js';

/**
 * Applies the tenant's capacity model to an authenticated WMS API call (it runs after the bearer
 * check, which names the tenant): 429 with Retry-After over the rate, a queue beyond the
 * concurrency, the base latency on every call.
 */
export function capacityLimit(capacity: CapacityRegistry): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (!principal) return next();
    const admission = capacity.admit(principal.tenant.id);
    if (!admission.ok) {
      throw new WmsApiError(
        429,
        entityOf(c.req.path),
        'ratelimited',
        'Too many requests: the rate limit of this tenant is exceeded',
        {
          headers: { 'Retry-After': String(admission.retryAfterSeconds) },
        },
      );
    }
    await admission.serve(next);
  };
}
