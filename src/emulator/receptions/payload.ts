import type { CloseReceptionPayload } from '../../wms/index.js';
import { webhookLines } from '../closing/lines.js';
import type { DocumentRow } from '../documents/rows.js';
import type { ReceptionLineRow } from './rows.js';
import { serialsOf } from './rows.js';

export interface ReceivedLine extends ReceptionLineRow {
  /** 'api' when the product has an API external code; null for products unknown to the tenant. */
  origin: 'api' | 'wms' | null;
}

/**
 * The close reception payload of one of the reception's documents (spec: Close reception
 * payload). `documentNumber` lists the numbers of every document of the reception; the lines are
 * what was received for this document, products without an API external code left out.
 */
export function closeReceptionPayload(input: {
  closingDocumentCode: string;
  document: DocumentRow;
  documents: readonly DocumentRow[];
  lines: readonly ReceivedLine[];
  company: string;
  receptionDate: string;
  observations: string | null;
}): CloseReceptionPayload {
  const own = input.lines.filter((l) => l.document_id === input.document.id && l.origin === 'api');
  return {
    closingDocumentCode: input.closingDocumentCode,
    documentNumber: input.documents.map((d) => d.document_number),
    documentExternalCode: input.document.external_code,
    documentType: input.document.document_type,
    company: input.company,
    originCode: input.document.origin_external_code,
    receptionDate: input.receptionDate,
    observations: input.observations,
    lines: webhookLines(
      own.map((l) => ({
        externalCode: l.product_external_code,
        lotCode: l.lot_code,
        expirationDate: l.expiration_date,
        serialNumbers: serialsOf(l.serial_numbers),
        quantity: l.quantity,
      })),
    ),
  };
}
