import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { errorResponse } from '../lib/openapi-errors.js';
import { operationId } from '../lib/operation-id.js';
import { webhookAckSchema } from '../wms/webhooks.js';
import { KINDS, type WebhookKind } from './kinds.js';

const params = z.object({
  connection: z
    .string()
    .meta({ description: 'Name of the connection (one WMS tenant) the webhook is configured for', example: 'acme' }),
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
    operationId: operationId('receive', kind, 'webhook'),
    path: `/webhooks/{connection}/${kind}`,
    tags: ['Webhooks'],
    summary: spec.title,
    description:
      'Called by the WMS. Stored durably (raw body and processing job in one transaction) before the answer; ' +
      'a repeat of an event already stored is acknowledged again and not processed again. Every form the spec allows ' +
      'is accepted (the schema below is the canonical one; docs/webhooks.md lists the others); a webhook processing ' +
      'cannot apply as it is is acknowledged and quarantined for an operator to repair.',
    security: [{ webhookBasic: [] }],
    request: {
      params,
      body: { required: true, content: { 'application/json': { schema: spec.schema } } },
    },
    responses: {
      200: {
        description:
          'Stored (or already stored, or quarantined): acknowledged. On a connection with ERP_CLOSE_ACK=sync, a close document is first ' +
          "forwarded to the ERP: when the ERP refuses it, `{success:false, message}` with the ERP's message (stored as rejected_by_erp; " +
          'docs/erp-delivery.md)',
        content: { 'application/json': { schema: webhookAckSchema } },
      },
      400: errorResponse(
        'Not JSON, or a close document that is not an object or has no usable closingDocumentCode: `message` names it. Stored as rejected.',
      ),
      401: errorResponse('Missing or wrong Basic credentials'),
      404: errorResponse('Unknown connection'),
      413: errorResponse('Body over the configured limit (BODY_LIMIT_BYTES)'),
      415: errorResponse(
        'The body is not JSON and the Content-Type is not application/json (a JSON body is read whatever its type). Stored as rejected.',
      ),
      503: errorResponse('The event could not be stored; it was not acknowledged'),
    },
  });
}
