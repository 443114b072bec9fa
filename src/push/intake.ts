import type { Clock } from '../lib/clock.js';
import { validationFailed } from '../lib/errors.js';
import { payloadIssue } from '../lib/nul.js';
import type { Tracing } from '../lib/tracing.js';
import type { FieldIssue } from '../lib/zod-issues.js';
import { fieldIssues } from '../lib/zod-issues.js';
import type { Queue } from '../queue/types.js';
import type { PushEntity, PushRecord, Store, StoreTx } from '../store/index.js';
import { dotSegmentIssues } from './codes.js';
import { type IntakeKind, KINDS } from './entities.js';
import { PUSH_QUEUE, type PushJob } from './job/queue.js';
import { normalizePayload, payloadHash } from './payload.js';

export interface IntakeDeps {
  store: Store;
  queue: Queue;
  clock: Clock;
  /** The request's trace, carried by the push jobs (absent or off: none). */
  tracing?: Pick<Tracing, 'traceparent'>;
}

export interface Accepted {
  record: PushRecord;
  /** False when the payload equals what is stored (synced or on its way): nothing new to push. */
  changed: boolean;
}

export interface ItemResult {
  index: number;
  externalCode: string | null;
  result: 'queued' | 'unchanged' | 'invalid';
  state?: PushRecord['state'];
  errors?: FieldIssue[];
}

interface Desired {
  entity: PushEntity;
  payload: Record<string, unknown>;
}

async function upsertAll(
  tx: StoreTx,
  queue: Queue,
  connection: string,
  items: Desired[],
  at: Date,
  traceparent?: string,
): Promise<Accepted[]> {
  const accepted = await tx.pushes.upsertMany(
    items.map((item) => {
      const payload = normalizePayload(item.payload);
      return {
        connection,
        entity: item.entity,
        externalCode: String(payload.externalCode),
        payload,
        payloadHash: payloadHash(payload),
        at,
      };
    }),
  );
  const jobs = accepted
    .filter((a) => a.changed)
    .map((a) => ({ data: { recordId: a.record.id, ...(traceparent ? { traceparent } : {}) } satisfies PushJob }));
  // The jobs commit with the records: a record is never pending without a job to push it.
  if (jobs.length > 0) await queue.sendMany(PUSH_QUEUE, jobs, { tx });
  return accepted;
}

/** Stores what the ERP wants to exist in the WMS (a validated DTO) and queues its push when it changed. */
export function acceptOne(
  deps: IntakeDeps,
  connection: string,
  entity: PushEntity,
  payload: Record<string, unknown>,
): Promise<Accepted> {
  const issue = payloadIssue(payload);
  if (issue !== undefined) return Promise.reject(validationFailed(`${issue.path}: ${issue.message}`, [issue]));
  const dots = dotSegmentIssues(entity, payload);
  if (dots.length > 0)
    return Promise.reject(validationFailed(dots.map((d) => `${d.path}: ${d.message}`).join('; '), dots));
  const at = deps.clock.now();
  return deps.store.transaction(
    async (tx) =>
      (await upsertAll(tx, deps.queue, connection, [{ entity, payload }], at, deps.tracing?.traceparent()))[0]!,
  );
}

/**
 * A batch (at most MAX_BATCH_ITEMS): each item is validated with the spec's DTO schema on its own;
 * the valid ones are stored and queued in one transaction, the invalid ones are reported with
 * their field errors. A code given twice in one batch is refused the second time.
 */
export async function acceptBatch(
  deps: IntakeDeps,
  connection: string,
  kind: IntakeKind,
  items: readonly unknown[],
): Promise<ItemResult[]> {
  const info = KINDS[kind];
  const results: ItemResult[] = [];
  const valid: { index: number; payload: Record<string, unknown> }[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const parsed = info.schema.safeParse(item);
    const code = (item as { externalCode?: unknown } | null)?.externalCode;
    const externalCode = typeof code === 'string' ? code : null;
    if (!parsed.success) {
      results[index] = { index, externalCode, result: 'invalid', errors: fieldIssues(parsed.error) };
      return;
    }
    const issue = payloadIssue(parsed.data);
    const dots = issue ? [] : dotSegmentIssues(info.entity, parsed.data);
    if (issue !== undefined || dots.length > 0) {
      results[index] = { index, externalCode, result: 'invalid', errors: issue ? [issue] : dots };
      return;
    }
    const earlier = seen.get(externalCode!);
    if (earlier !== undefined) {
      results[index] = {
        index,
        externalCode,
        result: 'invalid',
        errors: [{ path: 'externalCode', message: `already given at index ${earlier} of this batch` }],
      };
      return;
    }
    seen.set(externalCode!, index);
    valid.push({ index, payload: parsed.data });
  });
  if (valid.length > 0) {
    const at = deps.clock.now();
    const accepted = await deps.store.transaction((tx) =>
      upsertAll(
        tx,
        deps.queue,
        connection,
        valid.map((v) => ({ entity: info.entity, payload: v.payload })),
        at,
        deps.tracing?.traceparent(),
      ),
    );
    accepted.forEach(({ record, changed }, i) => {
      const index = valid[i]!.index;
      results[index] = {
        index,
        externalCode: record.externalCode,
        result: changed ? 'queued' : 'unchanged',
        state: record.state,
      };
    });
  }
  return results;
}
