import type { PushRecord } from '../../store/index.js';
import {
  type DeliveryPointInput,
  type DocumentCancel,
  type DocumentInput,
  type ProductInput,
  WMS_PATHS,
} from '../../wms/index.js';
import { type WmsClient, WmsError } from '../../wms-client/index.js';

interface Upsertable<T> {
  create(payload: T): Promise<unknown>;
  update(payload: T): Promise<unknown>;
  get(externalCode: string): Promise<unknown>;
}

/** 400 or 404: what a create of an existing record, or an update of a missing one, may answer. */
function refused(err: unknown): err is WmsError {
  return err instanceof WmsError && err.kind === 'http' && (err.status === 400 || err.status === 404);
}

async function exists<T>(api: Upsertable<T>, externalCode: string): Promise<boolean> {
  try {
    await api.get(externalCode);
    return true;
  } catch (err) {
    if (err instanceof WmsError && err.status === 404) return false;
    throw err;
  }
}

/**
 * Create, or update when it exists, in one call when our record says which: a record never
 * synced is created, one synced before is updated. Only when the WMS refuses (a create answered
 * before it was recorded here, a record deleted in the WMS) one GET settles which it was, and the
 * other call follows; otherwise the refusal stands with the WMS's own body.
 */
async function upsert<T extends { externalCode: string }>(
  api: Upsertable<T>,
  payload: T,
  syncedBefore: boolean,
): Promise<void> {
  try {
    await (syncedBefore ? api.update(payload) : api.create(payload));
  } catch (err) {
    if (!refused(err)) throw err;
    const found = await exists(api, payload.externalCode);
    if (found === syncedBefore) throw err;
    await (found ? api.update(payload) : api.create(payload));
  }
}

/**
 * Pushes one record's payload to the WMS. `attempt` is the record's attempt count including this
 * one: a document never synced whose earlier create may have landed (spec: "Endpoint 9 uses
 * externalCode as idempotency key", so the repeat returns that earlier document as it was) gets an
 * update after the create, so the WMS holds this version and not the earlier one.
 */
export async function sendRecord(client: WmsClient, record: PushRecord, attempt: number): Promise<void> {
  const syncedBefore = record.syncedHash !== null;
  switch (record.entity) {
    case 'product':
      return upsert(client.products, record.payload as ProductInput, syncedBefore);
    case 'delivery-point':
      return upsert(client.deliveryPoints, record.payload as DeliveryPointInput, syncedBefore);
    case 'document': {
      const doc = record.payload as DocumentInput;
      if (syncedBefore) return upsert(client.documents, doc, true);
      await client.documents.create(doc);
      if (attempt > 1) await client.documents.update(doc);
      return;
    }
    case 'document-cancel': {
      const result = await client.documents.cancel(record.payload as DocumentCancel);
      if (result.success === false) {
        throw new WmsError({
          kind: 'http',
          operation: 'cancelDocument',
          method: 'POST',
          path: WMS_PATHS.documentCancel,
          status: 200,
          body: result,
        });
      }
      return;
    }
  }
}
