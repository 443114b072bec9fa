import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  CLOSE_DOCUMENT_RECEIVED,
  closeDocumentMessageSchema,
  closeDocumentRefusalSchema,
  FEED_ENTRY_SCHEMAS,
  type FeedEntryDataType,
} from '../feed/entry-schemas.js';

export const ERP_DELIVERIES_TAG = {
  name: 'ERP deliveries',
  description:
    'What wms-sync POSTs to ERP_WEBHOOK_URL, signed per Standard Webhooks: every feed entry, and on an ERP_CLOSE_ACK=sync connection the close-document question.',
};

const headers = z.object({
  'webhook-id': z.string().meta({
    description:
      'evt_<connection>_<feed id> for a feed entry, the same on every attempt and resend (dedupe on it); close_<event>_<n> for a close-document question',
    example: 'evt_acme_1042',
  }),
  'webhook-timestamp': z
    .string()
    .regex(/^\d+$/)
    .meta({ description: 'Unix seconds of this attempt', example: '1764151200' }),
  'webhook-signature': z.string().meta({
    description:
      'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> with the secret after whsec_; one per secret, space-separated, during a rotation',
  }),
});

const DESCRIPTIONS: Record<FeedEntryDataType, string> = {
  'reception.closed': 'A reception closed in the warehouse: what was received, and its differences to the order.',
  'client_return.closed': 'A client return closed in the warehouse: what came back.',
  'shipment.closed': 'A shipping order closed: what left, and how it was packed.',
  'supplier_return.closed': 'A supplier return closed: what was sent back.',
  'stock.adjusted': 'A stock regularization in the warehouse: a signed quantity to add.',
  'stock.drift': "A reconciliation found the WMS's stock differs from what was reported: the delta to apply.",
};

const operationName = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}`;

/**
 * The OpenAPI 3.1 `webhooks` of the service's document: one per message the ERP receives, with its
 * body (the schemas the feed and the close acknowledgement build with), the signature headers and
 * the answers wms-sync reads.
 */
export function registerErpWebhooks(registry: OpenAPIHono['openAPIRegistry']): void {
  for (const [type, schema] of Object.entries(FEED_ENTRY_SCHEMAS) as [FeedEntryDataType, z.ZodType][]) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: operationName(type),
      tags: [ERP_DELIVERIES_TAG.name],
      summary: `${type} feed entry`,
      description: `${DESCRIPTIONS[type]} The body is the feed entry GET /erp/v1/feed/{id} returns.`,
      security: [],
      request: { headers, body: { required: true, content: { 'application/json': { schema } } } },
      responses: {
        200: { description: 'Any 2xx: the ERP has it. The body is kept (its first KB), not read.' },
        '4XX': { description: 'Dead at once, except 408, 409, 425 and 429, which are retried.' },
        '5XX': { description: 'Retried on the schedule (ERP_WEBHOOK_RETRY_SCHEDULE); Retry-After is honoured.' },
      },
    });
  }
  registry.registerWebhook({
    method: 'post',
    path: CLOSE_DOCUMENT_RECEIVED,
    operationId: operationName(CLOSE_DOCUMENT_RECEIVED),
    tags: [ERP_DELIVERIES_TAG.name],
    summary: 'May the warehouse close this document? (ERP_CLOSE_ACK=sync)',
    description:
      'Asked before a close document is processed; answered within ERP_CLOSE_ACK_TIMEOUT_MS. Only a 2xx with `{"success": false}` refuses: the WMS shows `message` to its operator.',
    security: [],
    request: {
      headers,
      body: { required: true, content: { 'application/json': { schema: closeDocumentMessageSchema } } },
    },
    responses: {
      200: {
        description:
          'A 2xx refuses with `{"success": false, "message"}`; any other 2xx body (empty, `{"success": true}`, not JSON) accepts.',
        content: { 'application/json': { schema: closeDocumentRefusalSchema } },
      },
      '4XX': { description: 'Decides nothing: the document is processed as if the ERP had not been asked.' },
      '5XX': { description: 'Decides nothing: the document is processed as if the ERP had not been asked.' },
    },
  });
}
