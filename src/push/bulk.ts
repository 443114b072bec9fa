import type { FieldIssue } from '../lib/zod-issues.js';
import type { PushesRepo, PushRecord, PushState } from '../store/index.js';
import { type IntakeKind, KINDS, MAX_BATCH_ITEMS } from './entities.js';
import type { FileItem } from './files.js';
import { acceptBatch, type IntakeDeps } from './intake.js';

export interface BulkLoad {
  read: number;
  invalid: { source: string; externalCode: string | null; errors: FieldIssue[] }[];
  queued: number;
  unchanged: number;
  /** Ids of the records this load touched (queued or unchanged), to follow their sync state. */
  recordIds: number[];
}

/** Takes a file's items in through the same path as the batch API, MAX_BATCH_ITEMS at a time. */
export async function loadItems(
  deps: IntakeDeps,
  connection: string,
  kind: IntakeKind,
  items: readonly FileItem[],
): Promise<BulkLoad> {
  const load: BulkLoad = { read: items.length, invalid: [], queued: 0, unchanged: 0, recordIds: [] };
  for (let start = 0; start < items.length; start += MAX_BATCH_ITEMS) {
    const chunk = items.slice(start, start + MAX_BATCH_ITEMS);
    const results = await acceptBatch(
      deps,
      connection,
      kind,
      chunk.map((i) => i.value),
    );
    const codes: string[] = [];
    for (const r of results) {
      if (r.result === 'invalid')
        load.invalid.push({ source: chunk[r.index]!.source, externalCode: r.externalCode, errors: r.errors ?? [] });
      else {
        load[r.result] += 1;
        codes.push(r.externalCode!);
      }
    }
    const records = await deps.store.pushes.getMany(connection, KINDS[kind].entity, codes);
    load.recordIds.push(...records.map((r) => r.id));
  }
  return load;
}

export type StateCounts = Record<PushState, number>;

/**
 * Follows the records until none is pending, `deadline` passes or `stop` resolves, calling
 * `onTick` with the counts at each look. Returns the last counts.
 */
export async function followSync(
  deps: { store: { pushes: Pick<PushesRepo, 'summarize'> } },
  recordIds: readonly number[],
  options: {
    /** Between two looks; a function of the last counts may look more often near the end (each look reads every id). */
    intervalMs: number | ((counts: StateCounts) => number);
    deadline?: number;
    stop?: Promise<unknown>;
    onTick?: (counts: StateCounts) => void;
  },
): Promise<StateCounts> {
  let stopped = false;
  void options.stop?.then(() => (stopped = true));
  for (;;) {
    const counts = await deps.store.pushes.summarize(recordIds);
    options.onTick?.(counts);
    if (counts.pending === 0 || stopped || (options.deadline !== undefined && Date.now() >= options.deadline))
      return counts;
    const wait = typeof options.intervalMs === 'number' ? options.intervalMs : options.intervalMs(counts);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The failed records of a load, for the summary (the first `limit`). */
export async function failedOf(
  deps: Pick<IntakeDeps, 'store'>,
  connection: string,
  kind: IntakeKind,
  recordIds: readonly number[],
  limit: number,
): Promise<PushRecord[]> {
  const ids = new Set(recordIds);
  const out: PushRecord[] = [];
  let afterId = 0;
  while (out.length < limit) {
    const page = await deps.store.pushes.list({
      connection,
      entity: KINDS[kind].entity,
      state: 'failed',
      limit: 500,
      afterId,
    });
    if (page.length === 0) break;
    out.push(...page.filter((r) => ids.has(r.id)));
    afterId = page.at(-1)!.id;
  }
  return out.slice(0, limit);
}
