import type { ServiceDeps } from '../deps.js';
import type { Config } from '../lib/config.js';
import { silentLogger } from '../lib/logger.js';
import { openDeps } from '../main.js';
import { UsageError } from './args.js';

/** Opens the store and queue the configuration names, runs `fn`, and closes them (one-shot commands). */
export async function withServiceDeps<T>(config: Config, fn: (deps: ServiceDeps) => Promise<T>): Promise<T> {
  const deps = await openDeps(config, { logger: silentLogger() });
  try {
    return await fn(deps);
  } finally {
    await deps.queue.stop({ graceMs: 0 });
    // Gives this process's share of a shared WMS limit back before the store goes.
    await deps.wms.close();
    await deps.store.close();
  }
}

/** An inbound event's id as given on the command line. */
export function eventId(raw: string): number {
  if (!/^[1-9]\d*$/.test(raw)) throw new UsageError(`"${raw}" is not an event id`);
  return Number(raw);
}
