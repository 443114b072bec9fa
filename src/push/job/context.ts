import type { Counter } from 'prom-client';
import type { ServiceDeps } from '../../deps.js';
import type { AlertSignals } from '../../lib/alert-signals.js';
import type { Clock } from '../../lib/clock.js';
import type { Config } from '../../lib/config.js';
import type { ConnectionRegistry } from '../../lib/connection-registry.js';
import type { Logger } from '../../lib/logger.js';
import type { Queue } from '../../queue/types.js';
import type { Store } from '../../store/index.js';
import type { WmsClients } from '../../wms-client/index.js';
import { pushMetrics } from './metrics.js';

/** Everything a push needs, built once per worker. */
export interface PushContext {
  store: Store;
  queue: Queue;
  clock: Clock;
  logger: Logger;
  connections: ConnectionRegistry;
  clients: WmsClients;
  settings: Config['push'];
  /** How long a push may hold a record's lease: every call of a push with its timeout, and slack. */
  leaseMs: number;
  pushes: Counter<'entity' | 'outcome'>;
  random: () => number;
  /** Aborted when the process stops: a push let go mid-call is not a failure of the record. */
  stopping?: AbortSignal;
  alerts?: AlertSignals;
}

/** Calls in the longest push (update refused, GET, create; each possibly after a 401 and a token request). */
const CALLS_PER_PUSH = 6;

export function pushContext(deps: ServiceDeps): PushContext {
  const metrics = pushMetrics(deps.metrics);
  return {
    store: deps.store,
    queue: deps.queue,
    clock: deps.clock,
    logger: deps.logger.child({ room: 'pushes' }),
    connections: deps.connections,
    clients: deps.wms,
    ...(deps.alerts ? { alerts: deps.alerts } : {}),
    settings: deps.config.push,
    leaseMs: CALLS_PER_PUSH * deps.config.wms.timeoutMs + 60_000,
    pushes: metrics.pushes,
    random: Math.random,
    stopping: deps.stopping,
  };
}
