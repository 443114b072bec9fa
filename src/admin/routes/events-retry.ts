import { createRoute } from '@hono/zod-openapi';
import { retryMatching } from '../../inbound/retry-event.js';
import { validationFailed } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import {
  ADMIN_ERRORS,
  bulkRetryBodySchema,
  bulkRetryResultSchema,
  requireJsonBody,
  storeFilter,
} from './event-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'adminRetryEvents',
  path: `${ADMIN_PREFIX}/events/retry`,
  tags: ['Admin'],
  summary: 'Retry every failed or quarantined event that matches the filters',
  description:
    'The body takes the filters of GET /admin/v1/events (connection, kind, status, code, receivedFrom, receivedTo). ' +
    'Only failed and quarantined events are retried (`status` may narrow to one of them). `dryRun: true` counts them ' +
    'and changes nothing (200); otherwise they are queued for processing (202).',
  security: ADMIN_SECURITY,
  middleware: [requireJsonBody()],
  request: { body: { required: true, content: { 'application/json': { schema: bulkRetryBodySchema } } } },
  responses: {
    200: {
      description: 'Dry run: how many events it would retry',
      content: { 'application/json': { schema: bulkRetryResultSchema } },
    },
    202: {
      description: 'Queued: how many matched and how many were retried',
      content: { 'application/json': { schema: bulkRetryResultSchema } },
    },
    400: errorResponse('Not JSON, a filter that is not valid, or a status other than failed/quarantined'),
    415: errorResponse('Content-Type is not application/json'),
    ...ADMIN_ERRORS,
  },
});

/** POST /admin/v1/events/retry */
export const registerEventsRetry: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const result = await retryMatching(deps, storeFilter(body), { dryRun: body.dryRun });
    if (!result.ok)
      throw validationFailed(result.problem, [{ path: 'status', message: result.problem.replace(/^status: /, '') }]);
    const { matched, retried, dryRun } = result;
    return c.json({ matched, retried, dryRun }, dryRun ? 200 : 202);
  });
};
