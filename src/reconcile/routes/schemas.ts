import { z } from '@hono/zod-openapi';
import { errorResponse } from '../../lib/openapi-errors.js';

export const SECURITY = [{ erpBearer: [] }];

const positive = (name: string) =>
  z.coerce.number({ error: `${name}: expected a positive integer` }).int(`${name}: expected a positive integer`).min(1, `${name}: expected a positive integer`);

export const runIdParamsSchema = z.object({
  id: positive('id').openapi({ param: { name: 'id', in: 'path' }, example: 12 }),
});

export const MAX_ITEMS_PAGE = 1000;

export const runQuerySchema = z.object({
  itemsAfter: z.coerce
    .number({ error: 'itemsAfter: expected a non-negative integer' })
    .int('itemsAfter: expected a non-negative integer')
    .min(0, 'itemsAfter: expected a non-negative integer')
    .default(0)
    .openapi({ description: 'Items with an id above this one (`nextItemsAfter` of the previous page)', example: 0 }),
  itemsLimit: z.coerce
    .number({ error: `itemsLimit: expected an integer from 1 to ${MAX_ITEMS_PAGE}` })
    .int(`itemsLimit: expected an integer from 1 to ${MAX_ITEMS_PAGE}`)
    .min(1, `itemsLimit: expected an integer from 1 to ${MAX_ITEMS_PAGE}`)
    .max(MAX_ITEMS_PAGE, `itemsLimit: expected an integer from 1 to ${MAX_ITEMS_PAGE}`)
    .default(500)
    .openapi({ example: 500 }),
});

/** No options yet: unknown members are refused, so a client expecting one learns it does not exist. */
export const startRunBodySchema = z.object({}).strict().openapi('ReconciliationRequest');

export const startedSchema = z
  .object({
    id: z.int().openapi({ example: 12 }),
    status: z.enum(['queued', 'running', 'completed', 'partial', 'failed']).openapi({ example: 'queued' }),
  })
  .openapi('ReconciliationStarted');

export const errors = {
  unauthorized: { 401: errorResponse('Missing or invalid ERP bearer token') },
  body: {
    400: errorResponse('Malformed JSON, or members this request does not take'),
    413: errorResponse('Body larger than BODY_LIMIT_BYTES'),
    415: errorResponse('A body that is not application/json'),
  },
  query: { 400: errorResponse('A bad id, itemsAfter or itemsLimit (the message names it)') },
  notFound: { 404: errorResponse('No such run for this connection') },
};
