import { z } from 'zod';
import { documentTypeSchema } from './document.js';
import { codeSchema, isoDateSchema, isoDateTimeSchema } from './scalars.js';

/*
 * The three payloads the WMS POSTs to the integrator. The spec marks no member as required; these
 * schemas require only what the receiver's tolerant reading (webhooks-tolerant.ts) cannot do
 * without: the closing document's idempotency key, and each line's product and quantity (and, for
 * stock regularizations, the product and quantity). Everything else may be absent or null.
 */

export const webhookLineSchema = z
  .object({
    externalCode: codeSchema,
    quantity: z.number(),
    lotCode: z.string().nullish(),
    expirationDate: isoDateSchema.nullish(),
    serialNumbers: z.array(z.string()).nullish(),
  })
  .meta({ id: 'WebhookCloseLine' });
export type WebhookLine = z.infer<typeof webhookLineSchema>;

const closeDocumentShape = {
  closingDocumentCode: codeSchema,
  documentNumber: z.array(z.string()).nullish(),
  documentExternalCode: codeSchema
    .nullish()
    .meta({ description: 'The ERP document this closes; absent or null is accepted and read as null.' }),
  documentType: documentTypeSchema
    .nullish()
    .meta({ description: 'Absent or null is accepted and read as null: the webhook URL already names the kind.' }),
  company: z.string().nullish(),
  observations: z.string().nullish(),
  lines: z.array(webhookLineSchema),
};

/** Close reception; also the client-return close payload (same shape, another URL). */
export const closeReceptionPayloadSchema = z
  .object({
    ...closeDocumentShape,
    originCode: z.string().nullish(),
    receptionDate: isoDateSchema.nullish(),
  })
  .meta({ id: 'CloseReceptionWebhook' });
export type CloseReceptionPayload = z.infer<typeof closeReceptionPayloadSchema>;

export const packingListLineSchema = z
  .object({
    externalCode: codeSchema,
    quantity: z.number(),
  })
  .meta({ id: 'WebhookPackingListLine' });

export const packingListEntrySchema = z
  .object({
    packingCode: z.string().nullish(),
    weight: z.number().nullish(),
    lines: z.array(packingListLineSchema).nullish(),
  })
  .meta({ id: 'WebhookPackingListEntry' });
export type PackingListEntry = z.infer<typeof packingListEntrySchema>;

/** Close shipping order; also the supplier-return close payload (same shape, another URL). */
export const closeShippingOrderPayloadSchema = z
  .object({
    ...closeDocumentShape,
    destinationCode: z.string().nullish(),
    deliveryPointExternalCode: z.string().nullish(),
    carrier: z.string().nullish(),
    deliveryPlace: z.string().nullish(),
    packingList: z.array(packingListEntrySchema).nullish(),
  })
  .meta({ id: 'CloseShippingOrderWebhook' });
export type CloseShippingOrderPayload = z.infer<typeof closeShippingOrderPayloadSchema>;

/** One request per adjusted product and lot. `lotCode`/`warehouse` are null when there is none. */
export const stockRegularizationPayloadSchema = z
  .object({
    productExternalCode: codeSchema,
    lotCode: z.string().nullish(),
    quantity: z.number(),
    movementTime: isoDateTimeSchema.nullish().meta({
      description:
        'When the stock moved. Absent or null is acknowledged, and the event is quarantined for an operator: it cannot be placed in time.',
    }),
    warehouse: z.string().nullish(),
  })
  .meta({ id: 'StockRegularizationWebhook' });
export type StockRegularizationPayload = z.infer<typeof stockRegularizationPayloadSchema>;

/**
 * What a receiver answers. A 2xx acknowledges; `success: false` with a `message` rejects a close
 * document, and the WMS shows that message to its operator.
 */
export const webhookAckSchema = z
  .object({
    success: z.boolean().optional(),
    message: z.string().optional(),
  })
  .meta({ id: 'WebhookAck' });
export type WebhookAck = z.infer<typeof webhookAckSchema>;

export const WEBHOOK_KINDS = [
  'reception-close',
  'client-return-close',
  'shipping-order-close',
  'supplier-return-close',
  'stock-regularization',
] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
