import { createRoute, z } from '@hono/zod-openapi';
import { actorName, correctEvent } from '../../inbound/correct-event.js';
import { eventSummary } from '../../inbound/event-views.js';
import { problemsMessage } from '../../inbound/reading.js';
import { conflict, notFound, validationFailed } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { ADMIN_ERRORS, correctionResultSchema, idParams, requireJsonBody } from './event-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'put',
  operationId: 'adminCorrectEventPayload',
  path: `${ADMIN_PREFIX}/events/{id}/payload`,
  tags: ['Admin'],
  summary: 'Store a corrected payload beside the original and process the event again',
  description:
    'The body is the whole corrected payload (JSON). It is read exactly as a received webhook is; any problem answers 400 ' +
    'naming every field (`details`: `[{path, message}]`) and stores nothing. With `?dryRun=true` it is only checked ' +
    "(200, `stored: false`). Only quarantined and failed events can be corrected; a close document's " +
    'closingDocumentCode cannot change. The edit is recorded with the `X-Actor` header (or "admin").',
  security: ADMIN_SECURITY,
  middleware: [requireJsonBody()],
  request: {
    params: idParams,
    query: z.object({ dryRun: z.enum(['true', 'false']).optional().openapi({ description: 'true: check only' }) }),
    headers: z.object({
      'x-actor': z.string().optional().openapi({
        description:
          'On whose behalf the authenticated operator makes the change (letters, digits, space and ._@:+-/; at most 100): recorded beside the operator',
      }),
    }),
    body: {
      required: true,
      content: { 'application/json': { schema: z.unknown().openapi({ description: 'The corrected payload' }) } },
    },
  },
  responses: {
    200: {
      description: 'Stored and queued for processing (or, dry run, valid)',
      content: { 'application/json': { schema: correctionResultSchema } },
    },
    400: errorResponse('Not JSON, or the correction has problems: `details` lists them by path'),
    404: errorResponse('No such event'),
    409: errorResponse('The event is not quarantined or failed'),
    415: errorResponse('Content-Type is not application/json'),
    ...ADMIN_ERRORS,
  },
});

/** The authenticated operator, with the name the caller gives in X-Actor (a tool acting for someone) beside it. */
function actorOf(operator: string, header: string | undefined): string {
  const named = actorName(header, '');
  return named && named !== operator ? `${operator} (for ${named})` : operator;
}

/** PUT /admin/v1/events/{id}/payload */
export const registerEventPayload: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const id = Number(c.req.valid('param').id);
    const dryRun = c.req.valid('query').dryRun === 'true';
    const result = await correctEvent(deps, {
      id,
      payload: c.req.valid('json'),
      actor: actorOf(c.get('operator') ?? 'admin', c.req.header('x-actor')),
      dryRun,
    });
    if (!result.ok) {
      if (result.reason === 'not_found') throw notFound(`No event ${id}`);
      if (result.reason === 'not_editable')
        throw conflict(`Event ${id} is ${result.status}: only quarantined and failed events can be corrected`);
      throw validationFailed(problemsMessage(result.problems), result.problems);
    }
    return c.json(
      {
        stored: result.stored,
        event: eventSummary(result.event),
        changes: result.changes,
        canonical: { ...result.canonical },
        editId: result.edit?.id ?? null,
      },
      200,
    );
  });
};
