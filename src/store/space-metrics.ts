import { Gauge, type Registry } from 'prom-client';
import type { StorageSpace } from './space.js';

/** The storage gauges, read at scrape time from the storage state (`space.ts`). */
export function registerStorageGauges(registry: Registry, space: StorageSpace): void {
  const gauge = (name: string, help: string, read: () => number | undefined) => {
    if (registry.getSingleMetric(name)) return;
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const value = read();
        // Unknown (Postgres's disk, no WAL): no sample rather than a misleading zero.
        if (value === undefined) this.reset();
        else this.set(value);
      },
    });
  };
  gauge(
    'wms_sync_storage_short',
    '1 while new webhooks are refused for lack of disk space (DATA_MIN_FREE_MB, or a full disk)',
    () => (space.shortage() ? 1 : 0),
  );
  gauge('wms_sync_data_free_bytes', "Free bytes of the SQLite data directory's filesystem", () => space.freeBytes());
  gauge(
    'wms_sync_data_min_free_bytes',
    'The free-space reserve under which new webhooks are refused (DATA_MIN_FREE_MB)',
    () => space.minFreeBytes,
  );
  gauge('wms_sync_sqlite_wal_bytes', 'Size of the SQLite write-ahead log (bounded: docs/operations.md)', () =>
    space.walBytes(),
  );
}
