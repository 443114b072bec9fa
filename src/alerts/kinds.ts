import type { AlertKind } from '../lib/alert-signals.js';

/** What a message says about each kind, and which console page an operator acts from. */
export const KIND_TEXT: Record<AlertKind, { title: string; resolved: string; page: string }> = {
  event_quarantined: {
    title: 'Inbound events quarantined: they need a correction',
    resolved: 'No more inbound events quarantined',
    page: 'events?status=quarantined',
  },
  event_failed: {
    title: 'Inbound events failed for good',
    resolved: 'No more inbound events failed',
    page: 'events?status=failed',
  },
  close_refused: {
    title: 'The ERP refused close documents',
    resolved: 'No more close documents refused by the ERP',
    page: 'events?status=rejected_by_erp',
  },
  delivery_dead: {
    title: 'ERP deliveries dead after their last attempt',
    resolved: 'No more ERP deliveries dead',
    page: 'overview',
  },
  breaker_open: {
    title: 'The ERP endpoint is failing: its circuit breaker is open',
    resolved: 'The ERP endpoint answers again: its circuit breaker closed',
    page: 'overview',
  },
  push_failed: {
    title: 'WMS pushes failed for good',
    resolved: 'No more WMS pushes failed',
    page: 'pushes?state=failed',
  },
  reconcile_drift: {
    title: 'Reconciliation found stock drift',
    resolved: 'No more stock drift found',
    page: 'reconciliations',
  },
  reconcile_failed: {
    title: 'Reconciliation runs failed',
    resolved: 'No more reconciliation runs failed',
    page: 'reconciliations',
  },
  token_failing: {
    title: 'WMS token requests keep failing',
    resolved: 'WMS token requests succeed again',
    page: 'overview',
  },
  queue_waiting: {
    title: 'Jobs wait for a worker: the oldest ready job is late',
    resolved: 'The job queue drains again',
    page: 'overview',
  },
};
