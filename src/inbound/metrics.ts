import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Queue } from '../queue/types.js';
import type { Store } from '../store/types.js';
import { WEBHOOK_KINDS } from './kinds.js';
import { INBOUND_QUEUE } from './queue.js';

/** The receiver's and the processors' metrics, on the service's own registry (see lib/metrics.ts). */
export interface InboundMetrics {
  received: Counter<'connection' | 'kind'>;
  duplicates: Counter<'connection' | 'kind'>;
  rejected: Counter<'connection' | 'kind' | 'reason'>;
  authFailures: Counter<'connection'>;
  ackSeconds: Histogram<'kind' | 'outcome'>;
  commitBatchSize: Histogram<never>;
  processed: Counter<'connection' | 'kind'>;
  processingFailures: Counter<'connection' | 'kind' | 'final'>;
  processingLagSeconds: Histogram<'kind'>;
}

/**
 * Gets the metrics from the registry, creating them on first use: the app and the worker of one
 * process share a registry, and building an app twice must not register a metric twice.
 */
export function inboundMetrics(registry: Registry): InboundMetrics {
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    (registry.getSingleMetric(name) as Counter<L> | undefined) ??
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
    (registry.getSingleMetric(name) as Histogram<L> | undefined) ??
    new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
  return {
    received: counter('wms_sync_webhooks_received_total', 'Webhooks stored as new inbound events', [
      'connection',
      'kind',
    ]),
    duplicates: counter(
      'wms_sync_webhooks_duplicates_total',
      'Repeats of an inbound event already stored (acknowledged, not processed again)',
      ['connection', 'kind'],
    ),
    rejected: counter(
      'wms_sync_webhooks_rejected_total',
      'Webhooks refused and stored as rejected (reason: unsupported_media_type, malformed_json, invalid_payload)',
      ['connection', 'kind', 'reason'],
    ),
    authFailures: counter(
      'wms_sync_webhooks_auth_failures_total',
      'Webhooks to a known connection with missing or wrong Basic credentials',
      ['connection'],
    ),
    ackSeconds: histogram(
      'wms_sync_webhook_ack_seconds',
      'Time from request to answer on the webhook routes (outcome: accepted, duplicate, rejected, rejected_by_erp, unavailable)',
      ['kind', 'outcome'],
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
    ),
    commitBatchSize: histogram(
      'wms_sync_webhook_commit_batch_size',
      'Webhooks acknowledged by one transaction (group commit)',
      [],
      [1, 2, 5, 10, 20, 50, 100, 200, 500],
    ),
    processed: counter('wms_sync_inbound_processed_total', 'Events processed into feed entries and ledger movements', [
      'connection',
      'kind',
    ]),
    processingFailures: counter(
      'wms_sync_inbound_processing_failures_total',
      'Failed processing attempts (final="true": no retry left, the event is failed)',
      ['connection', 'kind', 'final'],
    ),
    processingLagSeconds: histogram(
      'wms_sync_inbound_processing_lag_seconds',
      'Time from receipt of an event to the commit of its processing',
      ['kind'],
      [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800],
    ),
  };
}

/** Gauges read at scrape time: processing jobs waiting and running, events per status, quarantined events. */
export function registerInboundGauges(
  registry: Registry,
  deps: { store: Store; queue: Queue; connections: { all(): readonly { name: string }[] } },
): void {
  if (!registry.getSingleMetric('wms_sync_inbound_quarantined')) {
    new Gauge<'connection' | 'kind'>({
      name: 'wms_sync_inbound_quarantined',
      help: 'Events stored but not processable as they are, waiting for an operator correction (current count)',
      labelNames: ['connection', 'kind'],
      registers: [registry],
      async collect() {
        // Zero for every connection and kind, so a repaired quarantine shows as 0, not as a gap.
        this.reset();
        for (const { name } of deps.connections.all())
          for (const kind of WEBHOOK_KINDS) this.set({ connection: name, kind }, 0);
        for (const row of await deps.store.inbox.quarantinedCounts())
          this.set({ connection: row.connection, kind: row.kind }, row.n);
      },
    });
  }
  if (!registry.getSingleMetric('wms_sync_inbound_queue_jobs')) {
    new Gauge<'state'>({
      name: 'wms_sync_inbound_queue_jobs',
      help: 'Processing jobs by state (waiting = created or retry; failed = dead)',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        const counts = await deps.queue.counts(INBOUND_QUEUE);
        this.set({ state: 'waiting' }, counts.created + counts.retry);
        this.set({ state: 'active' }, counts.active);
        this.set({ state: 'failed' }, counts.failed);
      },
    });
  }
  if (!registry.getSingleMetric('wms_sync_inbound_events')) {
    new Gauge<'status'>({
      name: 'wms_sync_inbound_events',
      help: 'Stored inbound events by status (received = waiting for processing)',
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        for (const [status, n] of Object.entries(await deps.store.inbox.countByStatus())) this.set({ status }, n);
      },
    });
  }
}
