import type { Config } from '../lib/config.js';
import type { SendOptions } from '../queue/types.js';

/**
 * The queue of processing jobs. One job carries the events acknowledged by one commit (group
 * commit), `{ eventIds }`: one job row per commit instead of one per event, the receiver's cost.
 * Each event is processed on its own, so one that fails does not stop the others.
 */
export const INBOUND_QUEUE = 'inbound-events';

export interface ProcessJobData {
  eventIds: number[];
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
