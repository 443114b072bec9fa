import type { PushRef } from '../../store/index.js';
import { type WmsError, wmsMessage } from '../../wms-client/index.js';

/** What is stored in `last_error` and shown by GET: the WMS's own message and body first. */
export interface PushFailure {
  /** `internal`: a failure of our own (the store, a bug); `job`: the push job gave up (died). */
  kind: 'wms' | 'dependencies' | 'configuration' | 'internal' | 'job';
  message: string;
  /** Which step failed: the look-up of the references in the WMS, or the push itself. */
  step?: PushStep;
  status?: number;
  operation?: string;
  body?: unknown;
  retryable?: boolean;
  attempts?: number;
  /** When the push is tried again, for a failure it will retry by itself. */
  nextAttemptAt?: string;
  waitingFor?: (PushRef & { state: string })[];
  at: string;
}

export type PushStep = 'references' | 'push';

export function wmsFailure(err: WmsError, at: Date, attempts?: number, step?: PushStep): PushFailure {
  return {
    kind: 'wms',
    ...(step ? { step } : {}),
    // The WMS's words ('Product SKU already exists') when it gave some; else what went wrong.
    message: (err.kind === 'http' ? wmsMessage(err.body) : undefined) ?? err.message,
    status: err.status,
    operation: err.operation,
    body: err.body ?? null,
    retryable: err.retryable,
    ...(attempts !== undefined ? { attempts } : {}),
    at: at.toISOString(),
  };
}
