import { z } from '@hono/zod-openapi';
import { errorResponse } from '../../lib/openapi-errors.js';
import type { DeliveryFilter } from '../../store/index.js';
import { DELIVERY_ATTEMPT_OUTCOMES, DELIVERY_STATUSES, FEED_ENTRY_TYPES } from '../../store/values.js';

// Schemas shared by the /admin/v1/deliveries routes (one route per file beside this one).

const instant = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time with offset' });

/** The list filters; the bulk resend takes the same members (but status) in its body. */
const filterShape = {
  connection: z.string().min(1).optional().openapi({ description: 'Connection name' }),
  type: z.enum(FEED_ENTRY_TYPES).optional().openapi({ description: 'Feed entry type' }),
  key: z
    .string()
    .min(1)
    .optional()
    .openapi({ description: 'Order key (`doc:<document>`, `lot:<product>|<lot>`), exact match' }),
  createdFrom: instant.optional().openapi({ description: 'Created at or after this instant' }),
  createdTo: instant.optional().openapi({ description: 'Created before this instant' }),
};

export const deliveriesQuerySchema = z.object({
  ...filterShape,
  status: z.enum(DELIVERY_STATUSES).optional(),
  before: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'expected the nextBefore of a previous page')
    .optional()
    .openapi({ description: 'nextBefore of the previous page' }),
  limit: z.coerce
    .number({ error: 'expected an integer from 1 to 200' })
    .int('expected an integer from 1 to 200')
    .min(1, 'expected an integer from 1 to 200')
    .max(200, 'expected an integer from 1 to 200')
    .default(50),
});

export const deliveryIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'expected a delivery id')
    .openapi({ param: { name: 'id', in: 'path' }, example: '42' }),
});

export const deliverySummarySchema = z
  .object({
    id: z.int(),
    connection: z.string(),
    webhookId: z.string().openapi({ description: 'The `webhook-id` header: the same on every attempt and resend' }),
    feedEntryId: z.int().openapi({ description: 'The feed entry (GET /erp/v1/feed/{id})' }),
    type: z.enum(FEED_ENTRY_TYPES),
    orderKey: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    nextAttemptAt: z.string().nullable(),
    lastStatus: z
      .int()
      .nullable()
      .openapi({ description: 'HTTP status of the last attempt; null when no answer came' }),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    deliveredAt: z.string().nullable(),
  })
  .openapi('AdminDelivery');

export const deliveryPageSchema = z
  .object({ deliveries: z.array(deliverySummarySchema), total: z.int(), nextBefore: z.int().nullable() })
  .openapi('AdminDeliveryPage');

export const deliveryDetailSchema = z
  .object({
    delivery: deliverySummarySchema,
    entry: z
      .object({ id: z.int(), type: z.string(), createdAt: z.string(), data: z.record(z.string(), z.unknown()) })
      .nullable()
      .openapi({ description: 'The body the ERP receives; null once retention pruned it' }),
    attempts: z.array(
      z.object({
        id: z.int(),
        at: z.string(),
        outcome: z.enum(DELIVERY_ATTEMPT_OUTCOMES),
        status: z.int().nullable(),
        latencyMs: z.int(),
        response: z.string().nullable().openapi({ description: 'The first KB of the answer' }),
        error: z.string().nullable(),
        probe: z
          .boolean()
          .openapi({ description: 'Sent by the circuit breaker to find out whether the endpoint is back' }),
      }),
    ),
  })
  .openapi('AdminDeliveryDetail');

export const bulkResendBodySchema = z
  .object({
    ...filterShape,
    dryRun: z.boolean().default(false).openapi({ description: 'Only count the dead deliveries it would resend' }),
  })
  .openapi('AdminDeliveriesResend');

export const bulkResendResultSchema = z
  .object({ matched: z.int(), resent: z.int(), dryRun: z.boolean() })
  .openapi('AdminDeliveriesResendResult');

export const DELIVERY_ERRORS = { 401: errorResponse('Missing or wrong admin bearer token') };

/** The filters as the store takes them. */
export function deliveryFilter(q: {
  connection?: string | undefined;
  type?: DeliveryFilter['type'];
  key?: string | undefined;
  status?: DeliveryFilter['status'];
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}): DeliveryFilter {
  return {
    ...(q.connection ? { connection: q.connection } : {}),
    ...(q.type ? { type: q.type } : {}),
    ...(q.key ? { orderKey: q.key } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.createdFrom ? { createdFrom: new Date(q.createdFrom) } : {}),
    ...(q.createdTo ? { createdTo: new Date(q.createdTo) } : {}),
  };
}
