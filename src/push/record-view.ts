import { z } from '@hono/zod-openapi';
import type { PushRecord, PushWait } from '../store/index.js';
import { PUSH_STATES } from '../store/index.js';
import { recordSummary } from './list.js';

export const waitViewSchema = z.object({
  entity: z.string().openapi({ example: 'product' }),
  externalCode: z.string(),
  since: z.string().openapi({ format: 'date-time' }),
});

export const recordViewSchema = z
  .object({
    entity: z.enum(['product', 'delivery-point', 'document', 'document-cancel']),
    externalCode: z.string(),
    state: z.enum(PUSH_STATES).openapi({
      description:
        'pending: to be pushed (or waiting, or backing off); synced: the WMS holds this payload; failed: see lastError',
    }),
    inSync: z.boolean().openapi({ description: 'The WMS holds exactly the payload stored here' }),
    attempts: z.int().openapi({ description: 'Pushes sent to the WMS for this record, all versions' }),
    lastPushedAt: z.string().nullable().openapi({ format: 'date-time' }),
    lastError: z.unknown().openapi({
      description: "The last failure: the WMS's status, message and body, or why the record waits no longer",
    }),
    waitingFor: z
      .array(waitViewSchema)
      .openapi({ description: 'References not in the WMS yet that this record waits for' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
    payload: z.record(z.string(), z.unknown()),
  })
  .openapi('PushRecord');

export type RecordView = z.infer<typeof recordViewSchema>;

export function recordView(record: PushRecord, waits: readonly PushWait[] = []): RecordView {
  // The list's summary of the record (without its id: the ERP API names records by code), then what only a whole record has.
  const { id: _id, ...summary } = recordSummary(record);
  return {
    ...summary,
    waitingFor: waits.map((w) => ({ entity: w.entity, externalCode: w.externalCode, since: w.since.toISOString() })),
    payload: record.payload,
  };
}
