import type { FeedEntryData } from '../erp/feed/entry-schemas.js';
import type {
  NewFeedEntry,
  NewReconciliationItem,
  NewStockSnapshot,
  ReconciliationItemStatus,
  RunCounter,
  Store,
} from '../store/index.js';
import { type Comparison, type Observation, pairKey } from './compare.js';

export type Increments = Partial<Record<RunCounter, number>>;

/**
 * The dedupe key of a drift feed entry: one per run, product, lot and the baseline the drift
 * departs from (`:` cannot occur inside the parts). The drift and its new baseline commit together,
 * so the same drift is only ever computed again from the same baseline (two attempts of a run at
 * once); an attempt started after another one wrote its drift departs from that newer baseline,
 * and what it finds is a new difference the ERP must receive too.
 */
export const driftKey = (runId: number, product: string, lot: string, baselineAsOf: Date | null): string =>
  `reconcile:${runId}:${encodeURIComponent(product)}:${encodeURIComponent(lot)}:${baselineAsOf ? baselineAsOf.getTime() : '-'}`;

/**
 * What one batch leaves behind, written in one transaction: the new baselines, the items, and a
 * `stock.drift` feed entry per confirmed drift; and what it adds to the run's counters.
 */
export class BatchWrite {
  readonly items: NewReconciliationItem[] = [];
  /** By pair: the last baseline of a pair wins (one upsert may not touch a row twice on Postgres). */
  readonly snapshots = new Map<string, NewStockSnapshot>();
  readonly feedEntries: NewFeedEntry[] = [];
  readonly progress: Increments = {};

  constructor(
    private readonly runId: number,
    private readonly connection: string,
    private readonly at: Date,
  ) {}

  count(counter: RunCounter, n: number): void {
    this.progress[counter] = (this.progress[counter] ?? 0) + n;
  }

  /** The WMS's figure becomes the pair's baseline, as of when its request was sent. */
  baseline(c: Comparison, observation: Pick<Observation, 'sentAt'>, takenAt: Date): void {
    this.snapshots.set(pairKey(c.productExternalCode, c.lotCode), {
      connection: this.connection,
      productExternalCode: c.productExternalCode,
      lotCode: c.lotCode,
      existence: c.wms.existence,
      available: c.wms.available,
      asOf: observation.sentAt,
      takenAt,
      runId: this.runId,
    });
  }

  item(status: Exclude<ReconciliationItemStatus, 'not_found'>, c: Comparison, observedAt: Date): void {
    this.count(status === 'drift' ? 'driftCount' : 'unsettledCount', 1);
    this.items.push({
      runId: this.runId,
      connection: this.connection,
      productExternalCode: c.productExternalCode,
      lotCode: c.lotCode,
      status,
      wmsExistence: c.wms.existence,
      wmsAvailable: c.wms.available,
      expectedExistence: c.expected.existence,
      baselineExistence: c.expected.baseline,
      movements: c.expected.movements,
      delta: c.delta,
      observedAt,
      at: this.at,
    });
  }

  notFound(product: string): void {
    this.count('notFoundCount', 1);
    this.items.push({
      runId: this.runId,
      connection: this.connection,
      productExternalCode: product,
      lotCode: '',
      status: 'not_found',
      at: this.at,
    });
  }

  /** A confirmed drift: reported, sent to the ERP with the delta to apply, and the new baseline. */
  drift(c: Comparison, observation: Pick<Observation, 'sentAt'>, takenAt: Date): void {
    this.item('drift', c, observation.sentAt);
    this.baseline(c, observation, takenAt);
    this.feedEntries.push({
      connection: this.connection,
      type: 'stock.drift',
      dedupeKey: driftKey(this.runId, c.productExternalCode, c.lotCode, c.expected.baselineAsOf),
      data: {
        runId: this.runId,
        productExternalCode: c.productExternalCode,
        lotCode: c.lotCode || null,
        delta: c.delta,
        wms: c.wms,
        expected: { existence: c.expected.existence, baseline: c.expected.baseline, movements: c.expected.movements },
        observedAt: observation.sentAt.toISOString(),
      } satisfies FeedEntryData<'stock.drift'>,
      at: this.at,
    });
  }

  /** Rows to write. */
  get size(): number {
    return this.snapshots.size + this.items.length + this.feedEntries.length;
  }

  /** Takes another batch's rows (its counters stay its own). */
  absorb(other: BatchWrite): void {
    for (const [key, snapshot] of other.snapshots) this.snapshots.set(key, snapshot);
    this.items.push(...other.items);
    this.feedEntries.push(...other.feedEntries);
  }

  /**
   * Writes the baselines, items and feed entries together (nothing at all when the batch only
   * matched and nothing moved). The counters are the run's to add (see `ProgressCounter`).
   */
  async commit(store: Store): Promise<void> {
    if (this.size === 0) return;
    await store.transaction(async (tx) => {
      if (this.snapshots.size > 0) await tx.reconciliation.saveSnapshots([...this.snapshots.values()]);
      if (this.items.length > 0) await tx.reconciliation.addItems(this.items);
      // Last: on Postgres the append holds the feed's commit-order lock until the commit.
      for (const feedEntry of this.feedEntries) await tx.feed.append(feedEntry);
    });
  }
}

/**
 * The batches' writes, gathered into one transaction per `maxRows` rows or so: a first run writes
 * a baseline for every row, and a commit per batch of 100 products was what bound it on Postgres
 * (9,000 commits for a million rows). A confirmed drift is committed at once, with its baseline
 * and what was gathered: the ERP hears of it without waiting, and an attempt of the run started
 * meanwhile departs from its baseline. Baselines gathered and not yet committed when a run is
 * interrupted are lost with it, as the batches in flight are: the next attempt checks again.
 */
export class WriteBuffer {
  #write: BatchWrite;

  constructor(
    private readonly store: Store,
    private readonly make: () => BatchWrite,
    private readonly maxRows = 2000,
  ) {
    this.#write = make();
  }

  async add(write: BatchWrite): Promise<void> {
    this.#write.absorb(write);
    if (write.feedEntries.length > 0 || this.#write.size >= this.maxRows) await this.flush();
  }

  async flush(): Promise<void> {
    const write = this.#write;
    this.#write = this.make();
    await write.commit(this.store);
  }
}

/**
 * The run's counters, added up in memory and written at most once per `everyMs` (and on `flush`):
 * one row every batch would update, from every batch in flight, is what serialised the batches'
 * commits on Postgres.
 */
export class ProgressCounter {
  #pending: Increments = {};
  #last = 0;

  constructor(
    private readonly store: Store,
    private readonly runId: number,
    private readonly now: () => Date,
    private readonly everyMs = 1000,
  ) {}

  async add(increments: Increments): Promise<void> {
    for (const [k, n] of Object.entries(increments) as [RunCounter, number][])
      this.#pending[k] = (this.#pending[k] ?? 0) + n;
    if (this.now().getTime() - this.#last >= this.everyMs) await this.flush();
  }

  async flush(): Promise<void> {
    const increments = this.#pending;
    this.#pending = {};
    this.#last = this.now().getTime();
    if (Object.keys(increments).length > 0)
      await this.store.reconciliation.addProgress(this.runId, increments, this.now());
  }
}
