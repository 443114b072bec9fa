import { z } from '@hono/zod-openapi';
import { ERP_SECURITY } from '../../lib/erp-auth.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { RECONCILIATION_STATUSES } from '../../store/index.js';

export const SECURITY = ERP_SECURITY;

// Messages without the parameter's name: the error body prefixes each with its path already.
const positive = () =>
  z.coerce
    .number({ error: 'expected a positive integer' })
    .int('expected a positive integer')
    .min(1, 'expected a positive integer');

export const runIdParamsSchema = z.object({
  id: positive().openapi({ param: { name: 'id', in: 'path' }, example: 12 }),
});

export const MAX_ITEMS_PAGE = 1000;

export const runQuerySchema = z.object({
  itemsAfter: z.coerce
    .number({ error: 'expected a non-negative integer' })
    .int('expected a non-negative integer')
    .min(0, 'expected a non-negative integer')
    .default(0)
    .openapi({ description: 'Items with an id above this one (`nextItemsAfter` of the previous page)', example: 0 }),
  itemsLimit: z.coerce
    .number({ error: `expected an integer from 1 to ${MAX_ITEMS_PAGE}` })
    .int(`expected an integer from 1 to ${MAX_ITEMS_PAGE}`)
    .min(1, `expected an integer from 1 to ${MAX_ITEMS_PAGE}`)
    .max(MAX_ITEMS_PAGE, `expected an integer from 1 to ${MAX_ITEMS_PAGE}`)
    .default(500)
    .openapi({ example: 500 }),
});

/** No options yet: unknown members are refused, so a client expecting one learns it does not exist. */
export const startRunBodySchema = z.object({}).strict().openapi('ReconciliationRequest');

export const startedSchema = z
  .object({
    id: z.int().openapi({ example: 12 }),
    status: z.enum(RECONCILIATION_STATUSES).openapi({ example: 'queued' }),
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
