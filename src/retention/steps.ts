import type { Config } from '../lib/config.js';
import type { Store } from '../store/index.js';

/** What a step did (or would do, on a dry run): rows per kind, e.g. `{ bodies: 120 }`. */
export type PruneCounts = Record<string, number>;

/** One room's prune: what is older than `cutoff` goes, or is only counted with `dryRun`. */
export type PruneFn = (store: Store, cutoff: Date, dryRun: boolean) => Promise<PruneCounts>;

export interface PruneStep {
  name: string;
  /** The setting that says how many days its rows are kept. */
  setting: string;
  days(config: Config): number;
  prune: PruneFn;
}

export const pruneProcessedBodies: PruneFn = async (store, cutoff, dryRun) => ({
  bodies: await store.retention.pruneEventBodies('processed', cutoff, new Date(), dryRun),
});

export const pruneRejectedBodies: PruneFn = async (store, cutoff, dryRun) => ({
  bodies: await store.retention.pruneEventBodies('rejected', cutoff, new Date(), dryRun),
});

export const pruneDedupeKeys: PruneFn = async (store, cutoff, dryRun) => ({
  events: await store.retention.pruneEventKeys(cutoff, dryRun),
});

export const pruneFeed: PruneFn = async (store, cutoff, dryRun) => ({
  entries: await store.retention.pruneFeed(cutoff, dryRun),
});

export const pruneLedger: PruneFn = async (store, cutoff, dryRun) => ({
  ...(await store.retention.pruneLedger(cutoff, dryRun)),
});

export const pruneReconciliationRuns: PruneFn = async (store, cutoff, dryRun) => ({
  ...(await store.retention.pruneReconciliationRuns(cutoff, dryRun)),
});

export const pruneSyncedDocuments: PruneFn = async (store, cutoff, dryRun) => ({
  records: await store.retention.pruneSyncedDocuments(cutoff, dryRun),
});

export const pruneDeliveries: PruneFn = async (store, cutoff, dryRun) => ({
  ...(await store.erpDeliveries.prune(cutoff, dryRun)),
});

export const pruneAudit: PruneFn = async (store, cutoff, dryRun) => ({
  entries: await store.audit.prune(cutoff, dryRun),
});

export const pruneAlertMessages: PruneFn = async (store, cutoff, dryRun) => ({
  ...(await store.alerts.prune(cutoff, dryRun)),
});

/**
 * Every prune, in order: raw bodies before what their events wrote (a feed entry or a movement
 * stays while its event's body does), dedupe keys after bodies. A room with rows of its own adds
 * one line here (its function and its setting).
 */
export const pruneSteps: PruneStep[] = [
  {
    name: 'inbound-bodies',
    setting: 'INBOUND_RETENTION_DAYS',
    days: (c) => c.retention.inboundDays,
    prune: pruneProcessedBodies,
  },
  {
    name: 'rejected-bodies',
    setting: 'INBOUND_REJECTED_RETENTION_DAYS',
    days: (c) => c.retention.rejectedDays,
    prune: pruneRejectedBodies,
  },
  {
    name: 'dedupe-keys',
    setting: 'DEDUPE_RETENTION_DAYS',
    days: (c) => c.retention.dedupeDays,
    prune: pruneDedupeKeys,
  },
  {
    name: 'feed-entries',
    setting: 'FEED_RETENTION_DAYS',
    days: (c) => c.retention.feedDays,
    prune: pruneFeed,
  },
  { name: 'stock-ledger', setting: 'LEDGER_RETENTION_DAYS', days: (c) => c.retention.ledgerDays, prune: pruneLedger },
  {
    name: 'reconciliation-runs',
    setting: 'RECONCILE_RETENTION_DAYS',
    days: (c) => c.retention.reconcileDays,
    prune: pruneReconciliationRuns,
  },
  {
    name: 'synced-documents',
    setting: 'PUSH_RETENTION_DAYS',
    days: (c) => c.retention.pushDays,
    prune: pruneSyncedDocuments,
  },
  {
    name: 'erp-deliveries',
    setting: 'DELIVERY_RETENTION_DAYS',
    days: (c) => c.retention.deliveryDays,
    prune: pruneDeliveries,
  },
  { name: 'audit-entries', setting: 'AUDIT_RETENTION_DAYS', days: (c) => c.retention.auditDays, prune: pruneAudit },
  {
    name: 'notifications',
    setting: 'ALERT_RETENTION_DAYS',
    days: (c) => c.retention.alertDays,
    prune: pruneAlertMessages,
  },
];
