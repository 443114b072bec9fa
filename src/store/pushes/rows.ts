import type { PushUpsert } from './contract.js';

// Insert rows built once for both dialects: the column mapping lives here, the SQL (conflict
// targets, RETURNING) in each dialect's repo.

export function pushRow(input: PushUpsert) {
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

/** What an upsert changes on an existing WMS push: new payload, back to pending. */
export function pushUpdate(input: PushUpsert) {
  return {
    payload: input.payload,
    payloadHash: input.payloadHash,
    state: 'pending' as const,
    lastError: null,
    updatedAt: input.at,
  };
}
