/** The queue every WMS push goes through (all connections; the WMS client bounds each one). */
// The queue's stored name: jobs already waiting in a database are found under it.
export const PUSH_QUEUE = 'outbound-push';

export interface PushJob {
  recordId: number;
  /** Retries of a retryable WMS error so far in this push (drives the backoff). */
  retry?: number;
  /** Sent to run when a waiting record's wait runs out. */
  deadline?: boolean;
  /** The W3C traceparent of the ERP's request that asked for the push: the push's span continues it. */
  traceparent?: string;
}

export function pushJobs(recordIds: readonly number[]): { data: PushJob }[] {
  return recordIds.map((recordId) => ({ data: { recordId } }));
}
