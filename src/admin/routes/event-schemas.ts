import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { parseJsonText, readJsonText } from '../../lib/http.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { INBOUND_ATTEMPT_OUTCOMES, INBOUND_STATUSES } from '../../store/values.js';
import { WEBHOOK_KINDS } from '../../wms/webhooks.js';

// Schemas shared by the /admin/v1/events routes (one route per file beside this one).

const instant = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time with offset' });

/** The list filters; the bulk retry takes the same members in its body. */
export const eventFilterShape = {
  connection: z.string().min(1).optional().openapi({ description: 'Connection name' }),
  kind: z.enum(WEBHOOK_KINDS).optional(),
  status: z.enum(INBOUND_STATUSES).optional(),
  code: z.string().min(1).optional().openapi({
    description:
      'Business code: closingDocumentCode of a close document, productExternalCode of a stock regularization (exact match)',
  }),
  receivedFrom: instant.optional().openapi({ description: 'Received at or after this instant' }),
  receivedTo: instant.optional().openapi({ description: 'Received before this instant' }),
};

export const listQuerySchema = z.object({
  ...eventFilterShape,
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'expected the nextCursor of a previous page')
    .optional()
    .openapi({ description: 'nextCursor of the previous page (opaque)' }),
  limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: '1–200, default 50' }),
});

export const idParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'expected an event id')
    .openapi({ param: { name: 'id', in: 'path' }, example: '42' }),
});

export const eventSummarySchema = z
  .object({
    id: z.int(),
    connection: z.string(),
    kind: z.string(),
    status: z.enum(INBOUND_STATUSES),
    businessCode: z.string().nullable(),
    dedupeKey: z.string(),
    attempts: z.int(),
    duplicates: z.int(),
    error: z
      .string()
      .nullable()
      .openapi({ description: 'Error of the last failed processing attempt (or the refusal, for rejected)' }),
    quarantineReason: z
      .string()
      .nullable()
      .openapi({ description: 'Why the event cannot be processed as it is: every problem, with its path' }),
    corrected: z.boolean().openapi({ description: 'An operator correction is stored (processing uses the latest)' }),
    requestId: z.string().nullable(),
    receivedAt: z.string(),
    processedAt: z.string().nullable(),
    updatedAt: z.string(),
    payloadPrunedAt: z
      .string()
      .nullable()
      .openapi({ description: 'When retention removed the raw body; the event stays as its dedupe key' }),
  })
  .openapi('AdminEventSummary');

export const eventPageSchema = z
  .object({
    events: z.array(eventSummarySchema),
    total: z.int().openapi({ description: 'Events matching the filters, all pages together' }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as cursor for the next (older) page; null on the last page' }),
  })
  .openapi('AdminEventPage');

const payloadViewSchema = z.object({
  raw: z.string(),
  parsed: z.unknown().openapi({
    description: 'The JSON value; null when raw is not JSON or nests deeper than 64 levels (read raw then)',
  }),
});
const changeSchema = z
  .object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() })
  .openapi('AdminEditChange');

export const eventDetailSchema = z
  .object({
    event: eventSummarySchema,
    payload: payloadViewSchema.openapi({ description: 'The body exactly as received' }),
    correction: payloadViewSchema.nullable().openapi({ description: 'The latest operator correction' }),
    edits: z.array(z.object({ id: z.int(), actor: z.string(), at: z.string(), changes: z.array(changeSchema) })),
    attempts: z.array(
      z.object({
        id: z.int(),
        at: z.string(),
        outcome: z.enum(INBOUND_ATTEMPT_OUTCOMES),
        error: z.string().nullable(),
      }),
    ),
    feedEntries: z.array(
      z.object({ id: z.int(), type: z.string(), createdAt: z.string(), data: z.record(z.string(), z.unknown()) }),
    ),
    operatorActions: z
      .array(
        z.object({
          id: z.int(),
          at: z.string(),
          operator: z.string(),
          channel: z.string(),
          action: z.string(),
          outcome: z.string(),
          detail: z.string().nullable(),
        }),
      )
      .openapi({
        description:
          "The audit trail's entries for this event, newest first (retries, overrides with their reasons, edits)",
      }),
  })
  .openapi('AdminEventDetail');

export const correctionResultSchema = z
  .object({
    stored: z.boolean().openapi({ description: 'false for a dry run' }),
    event: eventSummarySchema,
    changes: z.array(changeSchema),
    canonical: z.record(z.string(), z.unknown()).openapi({ description: 'The correction as processing will read it' }),
    editId: z.int().nullable(),
  })
  .openapi('AdminCorrectionResult');

export const retryResultSchema = z
  .object({
    event: eventSummarySchema,
    erp: z
      .object({
        decision: z.enum(['accepted', 'rejected', 'none']),
        message: z.string().optional().openapi({ description: "The ERP's refusal, when it refuses again" }),
        detail: z
          .string()
          .optional()
          .openapi({ description: 'Why the ERP decided nothing (timeout, unreachable, HTTP status)' }),
      })
      .optional()
      .openapi({ description: 'Only for an event the ERP had refused: what the ERP answered when asked again' }),
  })
  .openapi('AdminRetryResult');

export const overrideBodySchema = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1, 'expected why the document is processed against the ERP refusal')
      .max(1000)
      .openapi({ description: "Why the document is processed against the ERP's refusal (kept in the audit trail)" }),
  })
  .openapi('AdminOverrideBody');

export const bulkRetryBodySchema = z
  .object({
    ...eventFilterShape,
    dryRun: z.boolean().default(false).openapi({ description: 'Only count the events it would retry' }),
  })
  .openapi('AdminBulkRetry');

export const bulkRetryResultSchema = z
  .object({ matched: z.int(), retried: z.int(), dryRun: z.boolean() })
  .openapi('AdminBulkRetryResult');

export const ADMIN_ERRORS = {
  401: errorResponse('Missing or wrong admin bearer token'),
};

/** A required JSON body: 415 for another content type, 400 when it does not parse, before the route's validator. */
export function requireJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    parseJsonText(await readJsonText(c));
    await next();
  };
}

/** The list filters as the store takes them. */
export function storeFilter(q: {
  connection?: string | undefined;
  kind?: string | undefined;
  status?: (typeof INBOUND_STATUSES)[number] | undefined;
  code?: string | undefined;
  receivedFrom?: string | undefined;
  receivedTo?: string | undefined;
}) {
  return {
    ...(q.connection ? { connection: q.connection } : {}),
    ...(q.kind ? { kind: q.kind } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.code ? { businessCode: q.code } : {}),
    ...(q.receivedFrom ? { receivedFrom: new Date(q.receivedFrom) } : {}),
    ...(q.receivedTo ? { receivedTo: new Date(q.receivedTo) } : {}),
  };
}
