import { setTimeout as delay } from 'node:timers/promises';
import type { AlertSignals } from '../lib/alert-signals.js';
import type { Clock } from '../lib/clock.js';
import type { Config } from '../lib/config.js';
import type { ConnectionRegistry } from '../lib/connection-registry.js';
import { errorMessage } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import { noTracing, type Tracing } from '../lib/tracing.js';
import type { ReconciliationRun, RunOutcome, Store } from '../store/index.js';
import type { WmsClients } from '../wms-client/index.js';
import { type BatchContext, checkBatch, type Pending } from './batch.js';
import type { CodeList } from './code-list.js';
import { forEachLimited } from './pool.js';
import { listProducts } from './products.js';
import { BatchFailed, type RetryPolicy, STOCK_RETRY } from './stock-query.js';
import { BatchWrite, ProgressCounter, WriteBuffer } from './write.js';

export interface RunDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  wms: WmsClients;
  connections: ConnectionRegistry;
  config: Pick<Config['reconcile'], 'products' | 'batchSize' | 'parallelism' | 'settleSeconds'>;
  /** A span per run and per stock batch, the WMS calls inside them (tracing on). */
  tracing?: Tracing;
  alerts?: AlertSignals | undefined;
}

export interface RunControls {
  /**
   * Stops the run at a safe point (between batches, in its settle wait; stock requests in flight
   * are let go by the client): it is left `interrupted`, to be started again by its job.
   */
  signal?: AbortSignal;
  retry?: RetryPolicy;
  /** Rows of baselines gathered per transaction (see `WriteBuffer`). */
  writeRows?: number;
  /** Told once when this call finishes the run (completed, partial or failed), e.g. for metrics. */
  onFinished?: (run: ReconciliationRun) => void;
}

/** The first pass plus this many rechecks; a pair still moving after them is reported `unsettled`. */
export const MAX_ROUNDS = 4;
/** This many failed batches in a row stop the run: the WMS is down, the rest would fail too. */
export const MAX_FAILED_IN_A_ROW = 5;

class Failures {
  batches = 0;
  products = 0;
  inARow = 0;
  first: string | undefined;

  add(err: BatchFailed): void {
    this.batches += 1;
    this.products += err.products.length;
    this.inARow += 1;
    this.first ??= `${err.message} (after ${err.attempts} attempt${err.attempts === 1 ? '' : 's'})`;
  }

  get tripped(): boolean {
    return this.inARow >= MAX_FAILED_IN_A_ROW;
  }
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Runs one reconciliation (the run record must exist; see `requestRun`): lists the products,
 * checks them in batches with bounded parallelism (each batch cut when a lane takes it, their
 * writes gathered into larger transactions: memory does not grow with the rows), rechecks the
 * differences after the settle window (see `checkBatch`), and finishes the run: `completed`, `partial` (some batches kept
 * failing; the reason says which and why) or `failed` (nothing could be checked). WMS errors end
 * up in the run; only failures of our own (the store) are thrown. A finished run is returned as is.
 */
export async function executeRun(
  deps: RunDeps,
  runId: number,
  controls: RunControls = {},
): Promise<ReconciliationRun | undefined> {
  const { store, clock } = deps;
  const run = await store.reconciliation.startRun(runId, clock.now());
  if (!run) return store.reconciliation.getRun(runId);
  const log = deps.logger.child({ runId, connection: run.connection });
  const tracing = deps.tracing ?? noTracing;
  const runSpan = tracing.start('reconcile.run', {
    attributes: { 'wms_sync.run_id': runId, 'wms_sync.connection': run.connection },
  });
  const finish = async (status: RunOutcome['status'], reason: string | null) => {
    runSpan.end(status === 'failed' ? new Error(reason ?? 'failed') : undefined);
    const done = await store.reconciliation.finishRun(runId, { status, reason, at: clock.now() });
    if (done) controls.onFinished?.(done);
    log.info(
      { status, reason, rows: done?.rowsChecked, drift: done?.driftCount, requests: done?.requests },
      'reconciliation finished',
    );
    if (status === 'failed' || status === 'partial')
      deps.alerts?.raise(run.connection, 'reconcile_failed', `run ${runId} ${status}: ${reason ?? ''}`);
    if (done && done.driftCount > 0)
      deps.alerts?.raise(
        run.connection,
        'reconcile_drift',
        `run ${runId}: ${done.driftCount} drift${done.driftCount === 1 ? '' : 's'} in ${done.rowsChecked} rows`,
      );
    return done;
  };
  // What was written stays (items, baselines, drift feed entries: idempotent); the next attempt starts over.
  const interrupt = async () => {
    runSpan.end();
    const left = await store.reconciliation.interruptRun(
      runId,
      'interrupted: the process stopped; the run starts again',
      clock.now(),
    );
    log.info({ status: left?.status }, 'reconciliation interrupted');
    return left;
  };

  const connection = deps.connections.get(run.connection);
  if (!connection) return finish('failed', `connection "${run.connection}" is not configured`);
  const retry = controls.retry ?? STOCK_RETRY;
  const writes = new WriteBuffer(store, () => new BatchWrite(runId, run.connection, clock.now()), controls.writeRows);
  const ctx: BatchContext = {
    store,
    clock,
    client: deps.wms.get(connection),
    runId,
    connection: run.connection,
    retry,
    signal: controls.signal,
    writes,
  };
  const aborted = () => controls.signal?.aborted === true;

  let codes: CodeList;
  let requests = 0;
  try {
    codes = await listProducts(
      { store, client: ctx.client, retry, signal: controls.signal, onRequest: () => void (requests += 1) },
      run.connection,
      deps.config.products,
    );
  } catch (err) {
    await store.reconciliation.addProgress(runId, { requests }, clock.now());
    if (aborted()) return interrupt();
    return finish('failed', `listing the products failed: ${errorMessage(err)}`);
  }
  await store.reconciliation.addProgress(runId, { requests }, clock.now());
  await store.reconciliation.setProductsTotal(runId, codes.length, clock.now());
  log.info({ products: codes.length, source: deps.config.products }, 'reconciliation started');
  const batches = codes.batches(deps.config.batchSize);

  const failures = new Failures();
  const progress = new ProgressCounter(store, runId, () => clock.now());
  let pending = new Map<string, Pending>();
  let checkedAny = false;
  const check = async (products: string[], previous?: ReadonlyMap<string, Pending>) => {
    try {
      const checked = await tracing.span(
        'reconcile.batch',
        {
          parent: runSpan.traceparent,
          attributes: { 'wms_sync.products': products.length, 'wms_sync.recheck': previous !== undefined },
        },
        () => checkBatch(ctx, products, previous),
      );
      for (const p of checked.pending) pending.set(p.key, p);
      failures.inARow = 0;
      checkedAny = true;
      await progress.add(checked.progress);
    } catch (err) {
      if (!(err instanceof BatchFailed) || aborted()) throw err;
      failures.add(err);
      log.warn({ products: err.products.length, err: err.message }, 'stock batch failed');
      await progress.add({ productsFailed: err.products.length, requests: err.requests });
    }
  };
  const stop = () => aborted() || failures.tripped;

  try {
    await forEachLimited(batches, deps.config.parallelism, (batch) => check(batch), stop);
    for (let round = 2; round <= MAX_ROUNDS && pending.size > 0 && !stop(); round++) {
      const previous = pending;
      pending = new Map();
      let lastAnswer = 0;
      for (const p of previous.values()) lastAnswer = Math.max(lastAnswer, p.observation.answeredAt.getTime());
      const due = lastAnswer + deps.config.settleSeconds * 1000;
      await writes.flush();
      await progress.flush();
      await delay(Math.max(0, due - clock.nowMs()), undefined, controls.signal ? { signal: controls.signal } : {});
      const products = [...new Set([...previous.values()].map((p) => p.product))];
      await forEachLimited(
        chunks(products, deps.config.batchSize),
        deps.config.parallelism,
        (batch) => check(batch, previous),
        stop,
      );
    }
  } catch (err) {
    if (aborted()) return interrupt();
    throw err;
  } finally {
    await progress.flush();
  }
  if (aborted()) return interrupt();

  if (pending.size > 0) {
    const write = new BatchWrite(runId, run.connection, clock.now());
    for (const p of pending.values()) write.item('unsettled', p.comparison, p.observation.sentAt);
    await writes.add(write);
    await progress.add(write.progress);
  }
  await writes.flush();
  await progress.flush();
  if (failures.batches === 0) return finish('completed', null);
  const stopped = failures.tripped ? `stopped after ${MAX_FAILED_IN_A_ROW} failed batches in a row; ` : '';
  const reason = `${stopped}${failures.batches} batch${failures.batches === 1 ? '' : 'es'} failed (${failures.products} products not checked): ${failures.first}`;
  return finish(checkedAny ? 'partial' : 'failed', reason);
}
