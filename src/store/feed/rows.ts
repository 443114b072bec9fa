import type { NewFeedEntry } from './contract.js';

// The insert row built once for both dialects: the column mapping lives here, the SQL (conflict
// targets, RETURNING) in each dialect's repo.

export function feedEntryRow(input: NewFeedEntry) {
  return {
    connection: input.connection,
    type: input.type,
    dedupeKey: input.dedupeKey,
    sourceEventId: input.sourceEventId ?? null,
    data: input.data,
    createdAt: input.at,
  };
}
