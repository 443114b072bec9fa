import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Store } from '../../store/types.js';
import { DELIVERY_STATUSES } from '../../store/values.js';

/** The push's metrics, on the service's own registry (see lib/metrics.ts). */
export interface DeliveryMetrics {
  attempts: Counter<'connection' | 'outcome'>;
  latencySeconds: Histogram<'connection'>;
  lagSeconds: Histogram<'connection'>;
}

/**
 * Gets the metrics from the registry, creating them on first use. The gauges (deliveries per
 * status, dead among them, breaker state) are read from the store at scrape time, so they agree
 * across every process sharing the database.
 */
export function deliveryMetrics(registry: Registry, store: Store): DeliveryMetrics {
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    (registry.getSingleMetric(name) as Counter<L> | undefined) ??
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
    (registry.getSingleMetric(name) as Histogram<L> | undefined) ??
    new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
  if (!registry.getSingleMetric('wms_sync_erp_deliveries')) {
    new Gauge({
      name: 'wms_sync_erp_deliveries',
      help: 'ERP deliveries now, per connection and status (pending, delivered, dead)',
      labelNames: ['connection', 'status'],
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await store.erpDeliveries.summary();
        for (const r of rows) this.set({ connection: r.connection, status: r.status }, r.n);
        for (const c of new Set(rows.map((r) => r.connection))) {
          for (const s of DELIVERY_STATUSES)
            if (!rows.some((r) => r.connection === c && r.status === s)) this.set({ connection: c, status: s }, 0);
        }
      },
    });
    new Gauge({
      name: 'wms_sync_erp_deliveries_dead',
      help: 'ERP deliveries that used every attempt (or were refused with a 4xx) and wait for an operator resend',
      labelNames: ['connection'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const r of await store.erpDeliveries.summary())
          if (r.status === 'dead') this.set({ connection: r.connection }, r.n);
      },
    });
    new Gauge({
      name: 'wms_sync_erp_delivery_breaker_open',
      help: "1 while the circuit breaker of a connection's ERP endpoint is open (only probes are sent), 0 when closed",
      labelNames: ['connection'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const b of await store.erpDeliveries.breakers())
          this.set({ connection: b.connection }, b.state === 'open' ? 1 : 0);
      },
    });
  }
  return {
    attempts: counter(
      'wms_sync_erp_delivery_attempts_total',
      'Delivery attempts to the ERP by outcome (delivered, retry, dead)',
      ['connection', 'outcome'],
    ),
    latencySeconds: histogram(
      'wms_sync_erp_delivery_latency_seconds',
      'Time the ERP took to answer one delivery attempt',
      ['connection'],
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    ),
    lagSeconds: histogram(
      'wms_sync_erp_delivery_lag_seconds',
      'Time from the feed event to its delivery to the ERP',
      ['connection'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600],
    ),
  };
}
