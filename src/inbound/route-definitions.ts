import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { errorResponse } from '../lib/openapi-errors.js';
import { webhookAckSchema } from '../wms/webhooks.js';
import { KINDS, type WebhookKind } from './kinds.js';

const params = z.object({
  connection: z.string().meta({ description: 'Name of the connection (one WMS tenant) the webhook is configured for', example: 'acme' }),
});

/**
 * The OpenAPI description of one webhook route. The handler reads and validates the raw body
 * itself (it must store it as received, and store a refused one as rejected), so this definition
 * is registered for documentation only; see routes.ts.
 */
export function webhookRoute(kind: WebhookKind) {
  const spec = KINDS[kind];
  return createRoute({
    method: 'post',
    path: `/webhooks/{connection}/${kind}`,
    tags: ['Webhooks'],
    summary: spec.title,
    description:
      'Called by the WMS. Stored durably (raw body and processing job in one transaction) before the answer; ' +
      'a repeat of an event already stored is acknowledged again and not processed again.',
    security: [{ webhookBasic: [] }],
    request: {
      params,
      body: { required: true, content: { 'application/json': { schema: spec.schema } } },
    },
    responses: {
      200: { description: 'Stored (or already stored): acknowledged', content: { 'application/json': { schema: webhookAckSchema } } },
      400: errorResponse('Malformed JSON, or a payload that fails validation: `message` names the field. Stored as rejected.'),
      401: errorResponse('Missing or wrong Basic credentials'),
      404: errorResponse('Unknown connection'),
      413: errorResponse('Body over the configured limit (BODY_LIMIT_BYTES)'),
      415: errorResponse('Content-Type is not application/json. Stored as rejected.'),
      503: errorResponse('The event could not be stored; it was not acknowledged'),
    },
  });
}
