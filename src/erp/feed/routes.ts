import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from '../../deps.js';
import { ERP_SECURITY, type ErpEnv, erpAuth } from '../../lib/erp-auth.js';
import { notFound } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { getFeedEntry, listFeed } from './read.js';
import { feedEntrySchema, feedIdParamsSchema, feedPageSchema, feedQuerySchema } from './schemas.js';

const listRoute = createRoute({
  method: 'get',
  operationId: 'listFeedEntries',
  path: '/erp/v1/feed',
  tags: ['ERP feed'],
  summary: 'Feed entries after a cursor, oldest first',
  description: 'The pull side of ERP delivery. The connection is the one the bearer token belongs to.',
  security: ERP_SECURITY,
  request: { query: feedQuerySchema },
  responses: {
    200: { description: 'A page of feed entries', content: { 'application/json': { schema: feedPageSchema } } },
    400: errorResponse('Bad cursor or limit'),
    401: errorResponse('Missing or wrong bearer token'),
  },
});

const getRoute = createRoute({
  method: 'get',
  operationId: 'getFeedEntry',
  path: '/erp/v1/feed/{id}',
  tags: ['ERP feed'],
  summary: 'One feed entry by id',
  security: ERP_SECURITY,
  request: { params: feedIdParamsSchema },
  responses: {
    200: { description: 'The feed entry', content: { 'application/json': { schema: feedEntrySchema } } },
    400: errorResponse('Bad id'),
    401: errorResponse('Missing or wrong bearer token'),
    404: errorResponse('No such feed entry for this connection'),
  },
});

/** `GET /erp/v1/feed` and `GET /erp/v1/feed/{id}`, behind the ERP bearer token. */
export function erpFeedRoutes(deps: Pick<ServiceDeps, 'store' | 'connections'>): OpenAPIHono<ErpEnv> {
  const app = new OpenAPIHono<ErpEnv>();
  app.use('/erp/v1/feed', erpAuth(deps.connections));
  app.use('/erp/v1/feed/*', erpAuth(deps.connections));
  app.openapi(listRoute, async (c) => {
    const { after, limit } = c.req.valid('query');
    return c.json(await listFeed(deps.store, { connection: c.get('connection').name, after, limit }), 200);
  });
  app.openapi(getRoute, async (c) => {
    const entry = await getFeedEntry(deps.store, { connection: c.get('connection').name, id: c.req.valid('param').id });
    if (!entry) throw notFound(`No feed entry ${c.req.valid('param').id}`);
    return c.json(entry, 200);
  });
  return app;
}
