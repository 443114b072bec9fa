import type { PushEntity, Store } from '../store/index.js';
import { type RecordView, recordView } from './record-view.js';

/** A record as wms-sync holds it, with what it waits for; undefined when the connection has none. */
export async function getRecord(
  store: Store,
  connection: string,
  entity: PushEntity,
  externalCode: string,
): Promise<RecordView | undefined> {
  const record = await store.pushes.get(connection, entity, externalCode);
  return record ? recordView(record, await store.pushes.waitsOf(record.id)) : undefined;
}
