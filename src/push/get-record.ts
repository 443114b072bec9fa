import type { OutboundEntity, Store } from '../store/index.js';
import { type RecordView, recordView } from './record-view.js';

/** A record as wms-sync holds it, with what it waits for; undefined when the connection has none. */
export async function getRecord(
  store: Store,
  connection: string,
  entity: OutboundEntity,
  externalCode: string,
): Promise<RecordView | undefined> {
  const record = await store.outbox.get(connection, entity, externalCode);
  return record ? recordView(record, await store.outbox.waitsOf(record.id)) : undefined;
}
