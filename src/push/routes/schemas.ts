import { z } from '@hono/zod-openapi';
import { NUL_MESSAGE } from '../../lib/nul.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { DOCUMENT_TYPES } from '../../wms/index.js';
import { MAX_BATCH_ITEMS } from '../entities.js';
import { recordViewSchema } from '../record-view.js';

/** The error answers every ERP route can give, with what triggers each. */
export const commonErrors = {
  401: errorResponse('Missing or invalid ERP bearer token'),
};
export const bodyErrors = {
  400: errorResponse('Malformed JSON, or a body that does not match the spec DTO (field errors in details)'),
  413: errorResponse('Body larger than BODY_LIMIT_BYTES'),
  415: errorResponse('Content-Type is not application/json'),
};
export const notFoundError = { 404: errorResponse('wms-sync holds no such record for this connection') };

export const codeParamsSchema = z.object({
  externalCode: z
    .string()
    .min(1)
    .refine((code) => !code.includes('\u0000'), NUL_MESSAGE)
    .openapi({ param: { name: 'externalCode', in: 'path' }, example: 'SKU-1001' }),
});

export const documentViewSchema = recordViewSchema
  .extend({
    cancel: recordViewSchema.nullable().openapi({ description: 'The cancel requested for this document, if any' }),
  })
  .openapi('PushedDocument');

export const itemResultSchema = z
  .object({
    index: z.int(),
    externalCode: z.string().nullable(),
    result: z.enum(['queued', 'unchanged', 'invalid']),
    state: z.enum(['pending', 'synced', 'failed']).optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('BatchItemResult');

export const batchResultSchema = z
  .object({
    summary: z.object({ queued: z.int(), unchanged: z.int(), invalid: z.int() }),
    results: z.array(itemResultSchema),
  })
  .openapi('BatchResult');

export function batchBodySchema(dto: string) {
  return z.object({
    items: z
      .array(z.unknown())
      .min(1)
      .max(MAX_BATCH_ITEMS)
      .openapi({
        description: `Up to ${MAX_BATCH_ITEMS} ${dto} objects, each validated on its own`,
        items: { $ref: `#/components/schemas/${dto}` },
      }),
  });
}

export const cancelBodySchema = z
  .object({
    documentType: z
      .enum(DOCUMENT_TYPES)
      .optional()
      .openapi({ description: 'Needed only when wms-sync does not hold the document' }),
  })
  .openapi('CancelRequest');
