import { createRoute, z } from '@hono/zod-openapi';
import { latestFeed } from '../../erp/feed/latest.js';
import { listFeed } from '../../erp/feed/read.js';
import { feedEntrySchema } from '../../erp/feed/schemas.js';
import { badRequest } from '../../lib/errors.js';
import { connectionErrors, connectionParams, mustGetConnection, pageQuery, queryErrors } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const query = pageQuery.extend({
  after: z.coerce
    .number({ error: 'expected a non-negative integer' })
    .int('expected a non-negative integer')
    .min(0, 'expected a non-negative integer')
    .optional()
    .openapi({ description: 'Read as the ERP does: events with an id above this cursor, oldest first', example: 0 }),
});

const pageSchema = z
  .object({
    order: z.enum(['newest-first', 'oldest-first']),
    entries: z.array(feedEntrySchema),
    nextBefore: z
      .int()
      .nullable()
      .openapi({ description: 'newest-first pages: `before` of the next (older) page; null at the end' }),
    next: z.int().nullable().openapi({ description: 'oldest-first pages: the cursor the ERP would read from next' }),
  })
  .openapi('AdminFeedPage');

const route = createRoute({
  method: 'get',
  operationId: 'adminListFeed',
  path: `${ADMIN_PREFIX}/connections/{connection}/feed`,
  tags: ['Admin'],
  summary: "A connection's ERP feed, as the ERP sees it",
  description:
    'Without `after`: the latest events, newest first (`before` pages back). With `after`: exactly what GET /erp/v1/feed?after= ' +
    'answers the ERP, oldest first. `after` and `before` do not go together.',
  security: ADMIN_SECURITY,
  request: { params: connectionParams, query },
  responses: {
    200: { description: 'A page of feed events', content: { 'application/json': { schema: pageSchema } } },
    ...queryErrors,
    ...connectionErrors,
  },
});

/** GET /admin/v1/connections/{connection}/feed */
export const registerFeed: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const connection = mustGetConnection(deps, c.req.valid('param').connection).name;
    const { after, before, limit } = c.req.valid('query');
    if (after !== undefined && before !== undefined)
      throw badRequest(
        'after and before do not go together: after reads oldest first, before pages back from the newest',
      );
    if (after !== undefined) {
      const page = await listFeed(deps.store, { connection, after, limit });
      return c.json({ order: 'oldest-first' as const, entries: page.entries, nextBefore: null, next: page.next }, 200);
    }
    const page = await latestFeed(deps.store, { connection, before, limit });
    return c.json(
      { order: 'newest-first' as const, entries: page.entries, nextBefore: page.nextBefore, next: null },
      200,
    );
  });
};
