import type { PushEntity } from '../store/index.js';
import type { IntakeDeps } from './intake.js';
import { type RecordView, recordView } from './record-view.js';
import { retryRecord } from './retry.js';

export type RetryOneResult =
  | { outcome: 'queued'; retried: RecordView[] }
  | { outcome: 'in-sync'; record: RecordView }
  | { outcome: 'busy'; record: RecordView }
  | { outcome: 'not-found' };

/**
 * An operator's retry of one record (ERP API, admin API, console): back in line now. A document's
 * failed cancel is retried with it. `busy` when a push of either is running (its outcome is not
 * known yet), `in-sync` when nothing needed a retry.
 */
export async function retryOne(
  deps: IntakeDeps,
  connection: string,
  entity: PushEntity,
  externalCode: string,
): Promise<RetryOneResult> {
  const entities = entity === 'document' ? (['document', 'document-cancel'] as const) : [entity];
  const outcomes = [];
  for (const e of entities) outcomes.push(await retryRecord(deps, connection, e, externalCode));
  const main = outcomes[0]!;
  if (main.outcome === 'not-found') return { outcome: 'not-found' };
  if (outcomes.some((o) => o.outcome === 'busy')) return { outcome: 'busy', record: recordView(main.record) };
  const retried = outcomes.flatMap((o) => (o.outcome === 'queued' ? [recordView(o.record)] : []));
  if (retried.length === 0) return { outcome: 'in-sync', record: recordView(main.record) };
  return { outcome: 'queued', retried };
}
