import { WmsError, wmsMessage } from '../../wms-client/index.js';
import type { OutboundRef } from '../../store/index.js';

/** What is stored in `last_error` and shown by GET: the WMS's own message and body first. */
export interface PushFailure {
  kind: 'wms' | 'dependencies' | 'configuration';
  message: string;
  status?: number;
  operation?: string;
  body?: unknown;
  retryable?: boolean;
  attempts?: number;
  waitingFor?: (OutboundRef & { state: string })[];
  at: string;
}

export function wmsFailure(err: WmsError, at: Date, attempts?: number): PushFailure {
  return {
    kind: 'wms',
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
