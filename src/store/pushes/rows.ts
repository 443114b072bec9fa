import type { NewConfirmation, NewLedgerMovement, OutboundUpsert } from '../types.js';

// Insert rows built once for both adapters: the column mapping of each table lives here, the SQL
// (conflict targets, RETURNING) in the dialect's repo.

export function outboundRow(input: OutboundUpsert) {
  return {
    connection: input.connection,
    entity: input.entity,
    externalCode: input.externalCode,
    payload: input.payload,
    payloadHash: input.payloadHash,
    state: 'pending' as const,
    createdAt: input.at,
    updatedAt: input.at,
  };
}

/** What an upsert changes on an existing outbound record: new payload, back to pending. */
export function outboundUpdate(input: OutboundUpsert) {
  return {
    payload: input.payload,
    payloadHash: input.payloadHash,
    state: 'pending' as const,
    lastError: null,
    updatedAt: input.at,
  };
}

export function confirmationRow(input: NewConfirmation) {
  return {
    connection: input.connection,
    type: input.type,
    dedupeKey: input.dedupeKey,
    sourceEventId: input.sourceEventId ?? null,
    data: input.data,
    createdAt: input.at,
  };
}

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
