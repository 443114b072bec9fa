import type { NewLedgerMovement } from './contract.js';

// The insert row built once for both dialects: the column mapping lives here, the SQL (conflict
// targets, RETURNING) in each dialect's repo.

export function ledgerRow(m: NewLedgerMovement) {
  return {
    connection: m.connection,
    productExternalCode: m.productExternalCode,
    lotCode: m.lotCode ?? '',
    warehouse: m.warehouse,
    quantity: m.quantity,
    movementTime: m.movementTime,
    source: m.source,
    dedupeKey: m.dedupeKey,
    sourceEventId: m.sourceEventId ?? null,
    createdAt: m.at,
  };
}
