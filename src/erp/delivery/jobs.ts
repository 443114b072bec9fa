import type { JobRegistration } from '../../deps.js';
import { deliveryMetrics } from './metrics.js';
import { createPoster } from './post.js';
import { DeliveryWorker, type PushConnection } from './worker.js';

/** The connections that push their feed to the ERP. */
export function pushConnections(
  connections: readonly { name: string; erpWebhook?: PushConnection['erpWebhook'] }[],
): PushConnection[] {
  return connections.flatMap((c) => (c.erpWebhook ? [{ name: c.name, erpWebhook: c.erpWebhook }] : []));
}

/**
 * The push to the ERP, in every process that runs jobs (`serve`, `worker`, `start`), when a
 * connection has an ERP webhook. Not a queue job: one loop per process, sharing the deliveries
 * through the store (docs/erp-delivery.md).
 */
export const deliveryJobs: JobRegistration = {
  name: 'delivery',
  register: async (deps) => {
    const connections = pushConnections(deps.connections.all());
    if (connections.length === 0) return;
    const poster = createPoster({
      timeoutMs: deps.config.delivery.timeoutMs,
      maxSockets: deps.config.delivery.concurrency,
    });
    const worker = new DeliveryWorker({
      store: deps.store,
      clock: deps.clock,
      logger: deps.logger.child({ room: 'delivery' }),
      settings: deps.config.delivery,
      connections,
      poster,
      metrics: deliveryMetrics(deps.metrics, deps.store),
      tracing: deps.tracing,
      stopping: deps.stopping,
      ...(deps.alerts ? { alerts: deps.alerts } : {}),
    });
    deps.stopping.addEventListener('abort', () => void worker.stop().finally(() => poster.close()), { once: true });
    worker.start();
  },
};
