import type { Clock } from '../lib/clock.js';
import type { Store } from '../store/index.js';
import type { WmsClient } from '../wms-client/index.js';
import { type Comparison, compare, type Observation, pairKey } from './compare.js';
import { queryStock, type RetryPolicy } from './stock-query.js';
import { BatchWrite, type Increments, type WriteBuffer } from './write.js';

export interface BatchContext {
  store: Store;
  clock: Clock;
  client: WmsClient;
  runId: number;
  connection: string;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
  /** Where the batch's writes go, to be committed with other batches' (see `WriteBuffer`). */
  writes: WriteBuffer;
}

/** A difference not confirmed yet: to be looked at again once the settle window has passed. */
export interface Pending {
  key: string;
  product: string;
  delta: number;
  comparison: Comparison;
  observation: Pick<Observation, 'sentAt' | 'answeredAt'>;
}

/**
 * Checks one batch of products: one stock request (split on 404), the expected figures as of the
 * moment it was sent, and the comparison, handed to the run's write buffer (a drift, its baseline
 * and its feed entry always in one transaction).
 *
 * The settle rule. A pair that matches is settled. A difference is only reported once it has
 * stood through the settle window: the pair is asked again (`previous` holds the pairs of a
 * recheck with their last delta) and is drift when the fresh comparison shows the same delta.
 * A webhook that was in flight at the first request has been learnt by then and the pair matches.
 * Returns the differences still to confirm, and what the batch adds to the run's counters.
 */
export async function checkBatch(
  ctx: BatchContext,
  products: string[],
  previous?: ReadonlyMap<string, Pending>,
): Promise<{ pending: Pending[]; progress: Increments }> {
  const result = await queryStock(
    { client: ctx.client, clock: ctx.clock, retry: ctx.retry, signal: ctx.signal },
    products,
  );
  const write = new BatchWrite(ctx.runId, ctx.connection, ctx.clock.now());
  const pending: Pending[] = [];
  write.count('requests', result.requests);
  if (!previous) write.count('productsChecked', products.length);

  for (const observation of result.observations) {
    const expected = await ctx.store.reconciliation.expected(ctx.connection, observation.products, observation.sentAt);
    // Taken once the ledger has been read: every movement the read saw was stamped (createdAt)
    // before it committed, so before this instant, and is not counted again on top of the new
    // baseline. Stamping before the read let a movement stamped in between be counted twice.
    // A movement stamped earlier but committed after the read is in the WMS figure (timed before
    // the request), so leaving it out of the next run is right too.
    const takenAt = ctx.clock.now();
    const only = previous ? pairsOf(previous, observation.products) : undefined;
    const comparisons = compare(observation.figures, expected, only);
    write.count(previous ? 'rowsRechecked' : 'rowsChecked', comparisons.length);
    for (const c of comparisons) {
      const key = pairKey(c.productExternalCode, c.lotCode);
      if (c.delta === 0) {
        // Settled. The old baseline stays exact; a new one only shortens later ledger sums.
        if (c.expected.movementCount > 0) write.baseline(c, observation, takenAt);
        continue;
      }
      const before = previous?.get(key);
      if (before && before.delta === c.delta) write.drift(c, observation, takenAt);
      // Only the times are kept: the batch's figures are let go with the batch.
      else
        pending.push({
          key,
          product: c.productExternalCode,
          delta: c.delta,
          comparison: c,
          observation: { sentAt: observation.sentAt, answeredAt: observation.answeredAt },
        });
    }
  }
  for (const product of result.notFound) write.notFound(product);
  await ctx.writes.add(write);
  return { pending, progress: write.progress };
}

function pairsOf(previous: ReadonlyMap<string, Pending>, products: readonly string[]): Set<string> {
  const wanted = new Set(products);
  const keys = new Set<string>();
  for (const p of previous.values()) if (wanted.has(p.product)) keys.add(p.key);
  return keys;
}
