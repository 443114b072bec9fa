import { badRequest } from '../lib/errors.js';
import type { Document, DocumentType } from '../wms/index.js';
import { type Accepted, acceptOne, type IntakeDeps } from './intake.js';

/**
 * A cancel of a document (endpoint 12 needs its externalCode and documentType). The type may be
 * left out when wms-sync holds the document; the push waits until the document is in the WMS.
 */
export async function acceptCancel(
  deps: IntakeDeps,
  connection: string,
  externalCode: string,
  documentType?: DocumentType,
): Promise<Accepted> {
  const document = await deps.store.pushes.get(connection, 'document', externalCode);
  const storedType = (document?.payload as Document | undefined)?.documentType;
  if (documentType && storedType && documentType !== storedType) {
    throw badRequest(`documentType ${documentType} does not match document ${externalCode}, a ${storedType}`);
  }
  const type = documentType ?? storedType;
  if (!type) throw badRequest(`documentType is required: wms-sync holds no document ${externalCode} to take it from`);
  return acceptOne(deps, connection, 'document-cancel', { externalCode, documentType: type });
}
