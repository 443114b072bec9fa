import { z } from '@hono/zod-openapi';
import type { ServiceDeps } from '../../deps.js';
import type { ConnectionConfig } from '../../lib/connections.js';
import { notFound } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';

// Messages without the parameter's name: the error body prefixes each with its path already.
const positive = () =>
  z.coerce
    .number({ error: 'expected a positive integer' })
    .int('expected a positive integer')
    .min(1, 'expected a positive integer');

export const MAX_PAGE = 200;

export const connectionParams = z.object({
  connection: z
    .string()
    .min(1)
    .openapi({ param: { name: 'connection', in: 'path' }, example: 'acme' }),
});

/** Keyset paging, newest first: `before` is the `nextBefore` of the previous page. */
export const pageQuery = z.object({
  before: positive()
    .optional()
    .openapi({ description: 'Items with an id below this one (`nextBefore` of the previous page)', example: 1200 }),
  limit: z.coerce
    .number({ error: `expected an integer from 1 to ${MAX_PAGE}` })
    .int(`expected an integer from 1 to ${MAX_PAGE}`)
    .min(1, `expected an integer from 1 to ${MAX_PAGE}`)
    .max(MAX_PAGE, `expected an integer from 1 to ${MAX_PAGE}`)
    .default(50)
    .openapi({ example: 50 }),
});

export const idParam = positive;

/** The errors every connection-scoped admin route can answer. */
export const connectionErrors = {
  401: errorResponse('Missing or wrong admin bearer token'),
  404: errorResponse('No such connection (or no such item of it)'),
};
export const queryErrors = { 400: errorResponse('A bad query or path parameter (the message names it)') };

/** The named connection, or a 404 naming it. */
export function mustGetConnection(deps: Pick<ServiceDeps, 'connections'>, name: string): ConnectionConfig {
  const connection = deps.connections.get(name);
  if (!connection) throw notFound(`No connection "${name}"`);
  return connection;
}
