/** Value sets of the service's own tables (not the WMS's: those live in src/wms/). */

/**
 * `rejected` is our refusal of a delivery we could not identify; `rejected_by_erp` is a close
 * document the ERP refused through the synchronous acknowledgement (docs/erp-delivery.md): stored,
 * not processed, until an operator retries it or the WMS re-sends it and the ERP accepts.
 */
export const INBOUND_STATUSES = [
  'received',
  'processed',
  'failed',
  'rejected',
  'quarantined',
  'rejected_by_erp',
] as const;
export type InboundStatus = (typeof INBOUND_STATUSES)[number];
/** The statuses an operator's retry puts back to `received` (docs/webhooks.md, "Retry"). */
export const REOPENABLE: readonly InboundStatus[] = ['failed', 'quarantined', 'processed', 'rejected_by_erp'];

export const PUSH_ENTITIES = ['product', 'delivery-point', 'document', 'document-cancel'] as const;
export type PushEntity = (typeof PUSH_ENTITIES)[number];

export const PUSH_STATES = ['pending', 'synced', 'failed'] as const;
export type PushState = (typeof PUSH_STATES)[number];

export const FEED_ENTRY_TYPES = [
  'reception.closed',
  'client_return.closed',
  'shipment.closed',
  'supplier_return.closed',
  'stock.adjusted',
  'stock.drift',
] as const;
export type FeedEntryType = (typeof FEED_ENTRY_TYPES)[number];

/**
 * queued → running → completed | partial (some batches failed) | failed (nothing could be checked);
 * interrupted: its process stopped mid-run, and the run waits to start again (not finished).
 */
export const RECONCILIATION_STATUSES = ['queued', 'running', 'completed', 'partial', 'failed', 'interrupted'] as const;
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number];

export const RECONCILIATION_TRIGGERS = ['schedule', 'api', 'cli'] as const;
export type ReconciliationTrigger = (typeof RECONCILIATION_TRIGGERS)[number];

/**
 * What a run found worth keeping for a product/lot: `drift` (confirmed, sent to the ERP),
 * `not_found` (the WMS answered 404 for the product), `unsettled` (still moving after every recheck).
 */
export const RECONCILIATION_ITEM_STATUSES = ['drift', 'not_found', 'unsettled'] as const;
export type ReconciliationItemStatus = (typeof RECONCILIATION_ITEM_STATUSES)[number];

/**
 * What one processing attempt of an inbound event came to (inbound_attempts.outcome);
 * `rejected_by_erp`: the ERP refused the close document when asked (its message in `error`), kept
 * so that the event's page shows every refusal after an override or a later acceptance.
 */
export const INBOUND_ATTEMPT_OUTCOMES = ['processed', 'quarantined', 'error', 'failed', 'rejected_by_erp'] as const;
export type InboundAttemptOutcome = (typeof INBOUND_ATTEMPT_OUTCOMES)[number];

/**
 * An ERP delivery: `pending` until the ERP answers 2xx (`delivered`), or until its last
 * attempt or an answer that no retry can change (`dead`, re-sendable by an operator).
 */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What one attempt came to: `delivered`, `retry` (another attempt is scheduled), `dead` (the last one). */
export const DELIVERY_ATTEMPT_OUTCOMES = ['delivered', 'retry', 'dead'] as const;
export type DeliveryAttemptOutcome = (typeof DELIVERY_ATTEMPT_OUTCOMES)[number];

/** A circuit breaker per endpoint: `closed` sends everything, `open` sends one probe per interval. */
export const BREAKER_STATES = ['closed', 'open'] as const;
export type BreakerState = (typeof BREAKER_STATES)[number];

/** How an operator action ended (audit_entries.outcome): done, refused (nothing changed), or failed. */
export const AUDIT_OUTCOMES = ['ok', 'refused', 'failed'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** How an operator reached the service (audit_entries.channel). */
export const AUDIT_CHANNELS = ['api', 'console', 'cli'] as const;
export type AuditChannel = (typeof AUDIT_CHANNELS)[number];
/** A notification tells that an alert fires (with what happened since the last one) or that it resolved. */
export const ALERT_PHASES = ['firing', 'resolved'] as const;
export type AlertPhase = (typeof ALERT_PHASES)[number];

/** A notification message waits to be sent (and retried), was sent, or gave up after its last attempt. */
export const ALERT_MESSAGE_STATES = ['pending', 'sent', 'dead'] as const;
export type AlertMessageState = (typeof ALERT_MESSAGE_STATES)[number];
