import type { PushRecord, PushRef, Store } from '../../store/index.js';
import type { Document, DocumentCancel } from '../../wms/index.js';
import { type WmsClient, WmsError } from '../../wms-client/index.js';

/** A reference that is not in the WMS yet, and why. */
export interface MissingRef extends PushRef {
  /** pending / failed: sent to wms-sync, not synced yet; unknown: neither sent to us nor in the WMS. */
  state: 'pending' | 'failed' | 'unknown';
  error?: string;
}

/** What must exist in the WMS before this record can be pushed: a document's products and delivery point, a cancel's document. */
export function referencesOf(record: Pick<PushRecord, 'entity' | 'payload'>): PushRef[] {
  if (record.entity === 'document') {
    const doc = record.payload as Document;
    const products = [...new Set((doc.lines ?? []).map((l) => l.productExternalCode))];
    const refs: PushRef[] = products.map((externalCode) => ({ entity: 'product', externalCode }));
    if (doc.deliveryPointExternalCode)
      refs.push({ entity: 'delivery-point', externalCode: doc.deliveryPointExternalCode });
    return refs;
  }
  if (record.entity === 'document-cancel') {
    return [{ entity: 'document', externalCode: (record.payload as DocumentCancel).externalCode }];
  }
  return [];
}

/**
 * The references not yet in the WMS. One that wms-sync has synced once exists there (a later
 * update pending does not matter). One wms-sync never received may have been created in the WMS
 * another way: with `askWms`, products and delivery points are looked up there (endpoints 4, 16);
 * a cancel's unknown document is left for the WMS to judge (it answers 404).
 */
export async function missingReferences(
  store: Pick<Store, 'pushes'>,
  client: WmsClient | undefined,
  connection: string,
  refs: readonly PushRef[],
): Promise<MissingRef[]> {
  const missing: MissingRef[] = [];
  for (const entity of new Set(refs.map((r) => r.entity))) {
    const codes = refs.filter((r) => r.entity === entity).map((r) => r.externalCode);
    const known = new Map((await store.pushes.getMany(connection, entity, codes)).map((r) => [r.externalCode, r]));
    for (const externalCode of codes) {
      const record = known.get(externalCode);
      if (record) {
        if (record.syncedHash === null) {
          const error = record.state === 'failed' ? errorText(record.lastError) : undefined;
          missing.push({
            entity,
            externalCode,
            state: record.state === 'failed' ? 'failed' : 'pending',
            ...(error ? { error } : {}),
          });
        }
        continue;
      }
      if (entity === 'document') continue;
      if (!client || !(await existsInWms(client, entity, externalCode)))
        missing.push({ entity, externalCode, state: 'unknown' });
    }
  }
  return missing;
}

async function existsInWms(client: WmsClient, entity: PushRef['entity'], code: string): Promise<boolean> {
  try {
    if (entity === 'product') await client.products.get(code);
    else await client.deliveryPoints.get(code);
    return true;
  } catch (err) {
    if (err instanceof WmsError && err.status === 404) return false;
    throw err;
  }
}

function errorText(lastError: unknown): string | undefined {
  const message = (lastError as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
}

const NAMES: Record<PushRef['entity'], string> = {
  product: 'product',
  'delivery-point': 'delivery point',
  document: 'document',
  'document-cancel': 'document cancel',
};

/** `product P1 (pending), delivery point D9 (failed: …)` */
export function describeMissing(missing: readonly MissingRef[]): string {
  return missing
    .map((m) => {
      const why =
        m.state === 'unknown'
          ? 'not sent to wms-sync and not in the WMS'
          : m.error
            ? `${m.state}: ${m.error}`
            : m.state;
      return `${NAMES[m.entity]} ${m.externalCode} (${why})`;
    })
    .join(', ');
}
