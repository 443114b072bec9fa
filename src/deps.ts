import type { Registry } from 'prom-client';
import type { AlertRecorder } from './alerts/recorder.js';
import type { AuthFailures } from './lib/auth-failures.js';
import type { Clock } from './lib/clock.js';
import type { Config } from './lib/config.js';
import type { ConnectionRegistry } from './lib/connection-registry.js';
import type { Logger } from './lib/logger.js';
import type { Queue } from './queue/types.js';
import type { AnyStore } from './store/index.js';
import type { StorageSpace } from './store/space.js';
import type { WmsClients } from './wms-client/index.js';

/** Everything the service's rooms need, built once at boot and passed down explicitly. */
export interface ServiceDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  store: AnyStore;
  /** The storage's free space and full-disk state: new webhooks are refused while it is short. */
  space: StorageSpace;
  queue: Queue;
  connections: ConnectionRegistry;
  metrics: Registry;
  /** One WMS client per connection for the whole process: one token cache, one concurrency bound. */
  wms: WmsClients;
  /** Failed authentications: counted, and limited per client address (one budget per process). */
  authFailures: AuthFailures;
  /** Notifications: what the rooms raise; absent when no ALERT_WEBHOOK_URL is configured. */
  alerts?: AlertRecorder;
  /** Aborted when the process is asked to stop: running jobs end at their next safe point. */
  stopping: AbortSignal;
}

/**
 * A room's jobs: queues it creates and handlers it runs. Each room exports one of these and
 * worker.ts lists them; it lives here, beside ServiceDeps, so rooms never import worker.ts.
 */
export interface JobRegistration {
  name: string;
  register(deps: ServiceDeps): Promise<void>;
}
