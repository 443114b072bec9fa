/**
 * The data set of `bench:console`, written through the store's repos (as the service writes it):
 * inbound events with a realistic spread of kinds and statuses, WMS pushes of every entity
 * and state, the feed, and reconciliation runs with drift.
 */
import type { AnyStore, InboundStatus, NewInboundEvent, PushEntity, PushUpsert } from '../../src/store/index.js';
import { WEBHOOK_KINDS } from '../../src/wms/webhooks.js';

export interface SeedSize {
  events: number;
  records: number;
  feedEntries: number;
  runs: number;
}

export interface Seeded extends SeedSize {
  seconds: number;
  /** Id ranges, to aim keyset cursors anywhere in the data. */
  ids: { events: [number, number]; records: [number, number]; feedEntries: [number, number]; runs: [number, number] };
  /** One day in the middle of the events' 30 days (ISO instants), for a time-range filter. */
  day: [string, string];
}

const BATCH = 1000;
const DAY_MS = 86_400_000;

/** One in ten failed, one in twenty rejected, one in a hundred quarantined, a few still received, the rest processed. */
function eventStatus(i: number): InboundStatus {
  if (i % 10 === 3) return 'failed';
  if (i % 100 === 19) return 'quarantined';
  if (i % 20 === 7) return 'rejected';
  if (i % 50 === 11) return 'received';
  return 'processed';
}

/** Products, documents, delivery points, a few cancels; 2 % failed, 8 % pending, the rest synced. */
function recordShape(i: number): { entity: PushEntity; state: 'pending' | 'synced' | 'failed' } {
  const entity: PushEntity =
    i % 10 < 6 ? 'product' : i % 10 < 9 ? 'document' : i % 20 === 9 ? 'document-cancel' : 'delivery-point';
  const state = i % 50 === 0 ? 'failed' : i % 12 === 1 ? 'pending' : 'synced';
  return { entity, state };
}

/** Batches of BATCH rows, `parallel` transactions at a time (Postgres commits them side by side; SQLite in turn). */
async function inBatches(n: number, parallel: number, fn: (from: number, to: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) {
        const from = next;
        next += BATCH;
        await fn(from, Math.min(n, from + BATCH));
      }
    }),
  );
}

export async function seed(
  store: AnyStore,
  connection: string,
  size: SeedSize,
  log: (line: string) => void,
): Promise<Seeded> {
  const started = performance.now();
  const now = Date.now();
  const parallel = store.dialect === 'postgres' ? 8 : 1;

  const eventIds: number[] = [];
  await inBatches(size.events, parallel, async (from, to) => {
    const inputs: NewInboundEvent[] = [];
    for (let i = from; i < to; i++) {
      const status = eventStatus(i);
      const kind = WEBHOOK_KINDS[i % WEBHOOK_KINDS.length]!;
      const payload = JSON.stringify({
        closingDocumentCode: `CD-${i}`,
        documentExternalCode: `PO-${i % 5000}`,
        lines: [{ productExternalCode: `P-${i % 20000}`, quantity: (i % 40) + 1 }],
      });
      inputs.push({
        connection,
        kind,
        dedupeKey: `${kind}:CD-${i}`,
        businessCode: `CD-${i}`,
        payload,
        at: new Date(now - 30 * DAY_MS + (i * 30 * DAY_MS) / size.events),
        ...(status === 'rejected' ? { status, error: 'invalid_payload: lines[0].quantity' } : {}),
        ...(status === 'quarantined'
          ? { status, quarantineReason: 'lines[0].quantity: expected a number, got "a few"' }
          : {}),
      });
    }
    await store.transaction(async (tx) => {
      const recorded = await tx.inbox.recordMany(inputs);
      for (const [k, r] of recorded.entries()) {
        eventIds.push(r.event.id);
        const status = eventStatus(from + k);
        if (status === 'processed') await tx.inbox.markProcessed(r.event.id, new Date(now));
        if (status === 'failed') await tx.inbox.markFailed(r.event.id, 'WMS document PO-1 not found', new Date(now));
      }
    });
  });
  log(`  ${size.events.toLocaleString()} inbound events`);

  const recordIds: number[] = [];
  await inBatches(size.records, parallel, async (from, to) => {
    const inputs: PushUpsert[] = [];
    for (let i = from; i < to; i++) {
      const { entity } = recordShape(i);
      inputs.push({
        connection,
        entity,
        externalCode: `${entity.toUpperCase()}-${i}`,
        payload: { externalCode: `${entity.toUpperCase()}-${i}`, description: `Record ${i}` },
        payloadHash: `h${i}`,
        at: new Date(now - DAY_MS),
      });
    }
    await store.transaction(async (tx) => {
      const results = await tx.pushes.upsertMany(inputs);
      for (const [k, { record }] of results.entries()) {
        recordIds.push(record.id);
        const { state } = recordShape(from + k);
        if (state === 'pending') continue;
        await tx.pushes.recordAttempt(record.id, new Date(now));
        if (state === 'synced') await tx.pushes.markSynced(record.id, record.payloadHash, new Date(now));
        else
          await tx.pushes.markFailed(
            record.id,
            { kind: 'wms', status: 400, message: 'Product SKU already exists', retryable: false },
            new Date(now),
          );
      }
    });
  });
  log(`  ${size.records.toLocaleString()} WMS pushes`);

  const feedIds: number[] = [];
  // One at a time: the feed's ids commit in order (a lock per append on Postgres).
  await inBatches(size.feedEntries, 1, async (from, to) => {
    await store.transaction(async (tx) => {
      for (let i = from; i < to; i++) {
        const { feedEntry } = await tx.feed.append({
          connection,
          type: i % 4 === 0 ? 'stock.adjusted' : 'reception.closed',
          dedupeKey: `bench-${i}`,
          data: {
            documentExternalCode: `PO-${i}`,
            closingDocumentCode: `CD-${i}`,
            lines: [{ productExternalCode: `P-${i % 20000}`, quantity: 5 }],
          },
          at: new Date(now),
        });
        feedIds.push(feedEntry.id);
      }
    });
  });
  log(`  ${size.feedEntries.toLocaleString()} feed events`);

  const runIds: number[] = [];
  const rec = store.reconciliation;
  for (let i = 0; i < size.runs; i++) {
    const at = new Date(now - (size.runs - i) * 3_600_000);
    const run = await rec.createRun({ connection, trigger: 'schedule', at });
    await rec.startRun(run.id, at);
    const drift = i % 7;
    await rec.addItems(
      Array.from({ length: drift }, (_, k) => ({
        runId: run.id,
        connection,
        productExternalCode: `P-${(i * 7 + k) % 20000}`,
        lotCode: null,
        status: 'drift' as const,
        wmsExistence: 10,
        expectedExistence: 12,
        delta: -2,
        at,
      })),
    );
    await rec.addProgress(run.id, { productsChecked: 20_000, rowsChecked: 22_000, requests: 201 }, at);
    await rec.finishRun(run.id, { status: 'completed', reason: null, at: new Date(at.getTime() + 90_000) });
    runIds.push(run.id);
  }
  log(`  ${size.runs.toLocaleString()} reconciliation runs`);

  const range = (ids: number[]): [number, number] => [
    ids.reduce((a, b) => Math.min(a, b)),
    ids.reduce((a, b) => Math.max(a, b)),
  ];
  const day: [string, string] = [new Date(now - 15 * DAY_MS).toISOString(), new Date(now - 14 * DAY_MS).toISOString()];
  return {
    ...size,
    seconds: (performance.now() - started) / 1000,
    ids: { events: range(eventIds), records: range(recordIds), feedEntries: range(feedIds), runs: range(runIds) },
    day,
  };
}
