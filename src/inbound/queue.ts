import type { Config } from '../lib/config.js';
import type { SendOptions } from '../queue/types.js';

/** The queue of processing jobs: one job per accepted event, `{ eventId }`. */
export const INBOUND_QUEUE = 'inbound-events';

export interface ProcessJobData {
  eventId: number;
}

/** Retry and lease of processing jobs, set on every job so they do not depend on who created the queue. */
export function processJobOptions(config: Config): Omit<SendOptions, 'tx'> {
  return {
    retryLimit: config.inbound.retryLimit,
    retryDelay: config.inbound.retryDelaySeconds,
    // pg-boss turns a zero delay with backoff into 1 s, 2 s, 4 s…: zero means retry at once.
    retryBackoff: config.inbound.retryDelaySeconds > 0,
    expireInSeconds: config.inbound.leaseSeconds,
  };
}
