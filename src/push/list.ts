import { z } from '@hono/zod-openapi';
import {
  PUSH_ENTITIES,
  PUSH_STATES,
  type PushEntity,
  type PushesSummary,
  type PushState,
  type Store,
} from '../store/index.js';

export const recordSummarySchema = z
  .object({
    id: z.int().openapi({ description: 'Keyset cursor: pass as `before` for the next (older) page' }),
    entity: z.enum(PUSH_ENTITIES),
    externalCode: z.string(),
    state: z.enum(PUSH_STATES),
    inSync: z.boolean().openapi({ description: 'The WMS holds exactly the payload stored here' }),
    attempts: z.int(),
    lastPushedAt: z.string().nullable().openapi({ format: 'date-time' }),
    lastError: z.unknown().openapi({ description: "The last failure: the WMS's status, message and body" }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('PushSummary');
export type RecordSummary = z.infer<typeof recordSummarySchema>;

export const recordPageSchema = z
  .object({
    records: z.array(recordSummarySchema),
    nextBefore: z
      .int()
      .nullable()
      .openapi({ description: 'Pass as `before` for the next page; null on the last page' }),
  })
  .openapi('PushesPage');
export type RecordPage = z.infer<typeof recordPageSchema>;

export function recordSummary(r: PushesSummary): RecordSummary {
  return {
    id: r.id,
    entity: r.entity,
    externalCode: r.externalCode,
    state: r.state,
    inSync: r.syncedHash === r.payloadHash,
    attempts: r.attempts,
    lastPushedAt: r.lastPushedAt?.toISOString() ?? null,
    lastError: r.lastError ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export interface ListRecordsInput {
  connection: string;
  entity: PushEntity;
  state?: PushState | undefined;
  before?: number | undefined;
  limit: number;
}

/** A page of one entity's records of the connection, newest first, with the cursor of the next page. */
export async function listRecords(store: Store, input: ListRecordsInput): Promise<RecordPage> {
  // One more than asked tells whether another page follows.
  const rows = await store.readModels.pushesPage({
    connection: input.connection,
    entity: input.entity,
    limit: input.limit + 1,
    ...(input.state ? { state: input.state } : {}),
    ...(input.before !== undefined ? { beforeId: input.before } : {}),
  });
  const page = rows.slice(0, input.limit);
  return { records: page.map(recordSummary), nextBefore: rows.length > input.limit ? page.at(-1)!.id : null };
}

export type StateCounts = Record<PushState, number>;

/** The connection's records counted by entity and state, zeros included. */
export async function countRecords(store: Store, connection: string): Promise<Record<PushEntity, StateCounts>> {
  const zero = (): StateCounts => ({ pending: 0, synced: 0, failed: 0 });
  const counts = Object.fromEntries(PUSH_ENTITIES.map((e) => [e, zero()])) as Record<PushEntity, StateCounts>;
  for (const row of await store.readModels.pushCounts(connection)) counts[row.entity][row.state] = row.n;
  return counts;
}
