import { z } from 'zod';

/*
 * What the ERP receives: the `data` of each feed entry type, the entries themselves (the pull
 * feed's items and the body of each pushed delivery), and the close-document question. The
 * builders (inbound/effects.ts, reconcile/write.ts, inbound/close-ack-http.ts) type what they
 * build with these schemas, and /openapi.json documents the feed and its `webhooks` from them.
 */

const text = z.string().nullable();
const instant = z.iso.datetime();

const eventData = {
  eventId: z.int().meta({ description: 'The inbound event (wms-sync events show <eventId>)' }),
  receivedAt: instant.meta({ description: 'When the WMS webhook was received' }),
};

export const closeLineDataSchema = z
  .object({
    productExternalCode: z.string(),
    quantity: z.number(),
    lotCode: text,
    expirationDate: z.iso.date().nullable(),
    serialNumbers: z.array(z.string()),
  })
  .meta({ id: 'FeedCloseLine' });

const closeDocumentData = {
  ...eventData,
  closingDocumentCode: z.string().meta({ description: "The WMS's code of the closing document: its identity" }),
  documentExternalCode: text.meta({ description: 'The ERP document it closes; null when the WMS sent none' }),
  documentType: text,
  documentNumbers: z.array(z.string()),
  company: text,
  observations: text,
  lines: z.array(closeLineDataSchema),
};

export const receptionDifferencesSchema = z
  .object({
    hasDifferences: z.boolean(),
    lines: z.array(
      z.object({
        productExternalCode: z.string(),
        lotCode: text,
        ordered: z.number(),
        received: z.number(),
        difference: z.number(),
        kind: z.enum(['surplus', 'shortage']),
      }),
    ),
    unknownProducts: z.array(z.object({ productExternalCode: z.string(), lotCode: text, received: z.number() })),
  })
  .meta({ id: 'ReceptionDifferences', description: 'Ordered against received, per product and lot' });

export const receptionClosedDataSchema = z
  .object({
    ...closeDocumentData,
    originCode: text,
    receptionDate: z.iso.date().nullable(),
    differences: receptionDifferencesSchema
      .nullable()
      .meta({ description: 'null when wms-sync does not hold the document (it was not pushed through it)' }),
  })
  .meta({ id: 'ReceptionClosedData', description: 'reception.closed and client_return.closed' });

export const shipmentClosedDataSchema = z
  .object({
    ...closeDocumentData,
    destinationCode: text,
    deliveryPointExternalCode: text,
    carrier: text,
    deliveryPlace: text,
    packingList: z.array(
      z.object({
        packingCode: text,
        weight: z.number().nullable(),
        lines: z.array(z.object({ productExternalCode: z.string(), quantity: z.number() })),
      }),
    ),
  })
  .meta({ id: 'ShipmentClosedData', description: 'shipment.closed and supplier_return.closed' });

export const stockAdjustedDataSchema = z
  .object({
    ...eventData,
    productExternalCode: z.string(),
    lotCode: text,
    quantity: z.number().meta({ description: 'Signed: what to add to the stock' }),
    movementTime: instant,
    warehouse: text,
  })
  .meta({ id: 'StockAdjustedData' });

export const stockDriftDataSchema = z
  .object({
    runId: z.int().meta({ description: 'The reconciliation run that found it' }),
    productExternalCode: z.string(),
    lotCode: text,
    delta: z.number().meta({ description: 'WMS minus expected: what the ERP must apply' }),
    wms: z.object({ existence: z.number(), available: z.number().nullable() }),
    expected: z.object({ existence: z.number(), baseline: z.number().nullable(), movements: z.number() }),
    observedAt: instant,
  })
  .meta({ id: 'StockDriftData' });

/** Each feed entry type with the schema of its `data`. */
export const FEED_ENTRY_DATA = {
  'reception.closed': receptionClosedDataSchema,
  'client_return.closed': receptionClosedDataSchema,
  'shipment.closed': shipmentClosedDataSchema,
  'supplier_return.closed': shipmentClosedDataSchema,
  'stock.adjusted': stockAdjustedDataSchema,
  'stock.drift': stockDriftDataSchema,
} as const;
export type FeedEntryDataType = keyof typeof FEED_ENTRY_DATA;
export type FeedEntryData<T extends FeedEntryDataType> = z.input<(typeof FEED_ENTRY_DATA)[T]>;

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

function entrySchema<T extends FeedEntryDataType>(type: T) {
  return z
    .object({
      id: z.int().min(1).meta({ description: 'Cursor of the entry: increasing, never reused', example: 42 }),
      type: z.literal(type),
      createdAt: instant.meta({ example: '2026-11-20T10:00:00.000Z' }),
      data: FEED_ENTRY_DATA[type],
    })
    .meta({ id: `${pascal(type)}Entry` });
}

/** One schema per feed entry type: `ReceptionClosedEntry`, `StockDriftEntry`, … */
export const FEED_ENTRY_SCHEMAS = {
  'reception.closed': entrySchema('reception.closed'),
  'client_return.closed': entrySchema('client_return.closed'),
  'shipment.closed': entrySchema('shipment.closed'),
  'supplier_return.closed': entrySchema('supplier_return.closed'),
  'stock.adjusted': entrySchema('stock.adjusted'),
  'stock.drift': entrySchema('stock.drift'),
} as const;

/** A feed entry of any type: the pull feed's item and a pushed delivery's body. */
export const feedEntrySchema = z
  .discriminatedUnion('type', [
    FEED_ENTRY_SCHEMAS['reception.closed'],
    FEED_ENTRY_SCHEMAS['client_return.closed'],
    FEED_ENTRY_SCHEMAS['shipment.closed'],
    FEED_ENTRY_SCHEMAS['supplier_return.closed'],
    FEED_ENTRY_SCHEMAS['stock.adjusted'],
    FEED_ENTRY_SCHEMAS['stock.drift'],
  ])
  .meta({ id: 'FeedEntry' });

export const CLOSE_DOCUMENT_RECEIVED = 'close_document.received';

const canonicalLineSchema = z.object({
  externalCode: z.string(),
  quantity: z.number(),
  lotCode: text,
  expirationDate: z.iso.date().nullable(),
  serialNumbers: z.array(z.string()),
});

const canonicalCloseDocument = {
  closingDocumentCode: z.string(),
  documentNumber: z.array(z.string()),
  documentExternalCode: text,
  documentType: text.meta({ description: "The spec's enum; a value it does not list is passed on as sent" }),
  company: text,
  observations: text,
  lines: z.array(canonicalLineSchema),
};

/** A reception or client-return close as the receiver reads it: every spec-legal form in one shape. */
export const canonicalCloseReceptionSchema = z
  .object({ ...canonicalCloseDocument, originCode: text, receptionDate: z.iso.date().nullable() })
  .meta({ id: 'CanonicalCloseReception' });

/** A shipping-order or supplier-return close as the receiver reads it. */
export const canonicalCloseShippingSchema = z
  .object({
    ...canonicalCloseDocument,
    destinationCode: text,
    deliveryPointExternalCode: text,
    carrier: text,
    deliveryPlace: text,
    packingList: z.array(
      z.object({
        packingCode: text,
        weight: z.number().nullable(),
        lines: z.array(z.object({ externalCode: z.string(), quantity: z.number() })),
      }),
    ),
  })
  .meta({ id: 'CanonicalCloseShipping' });

/** The close-document question of ERP_CLOSE_ACK=sync, asked before the document is processed. */
export const closeDocumentMessageSchema = z
  .object({
    type: z.literal(CLOSE_DOCUMENT_RECEIVED),
    connection: z.string(),
    kind: z
      .enum(['reception-close', 'client-return-close', 'shipping-order-close', 'supplier-return-close'])
      .meta({ description: 'The WMS webhook it arrived on' }),
    eventId: z.int().meta({ description: 'The stored event (wms-sync events show <eventId>)' }),
    data: z.union([canonicalCloseReceptionSchema, canonicalCloseShippingSchema]),
  })
  .meta({ id: 'CloseDocumentReceived' });
export type CloseDocumentMessage = z.input<typeof closeDocumentMessageSchema>;

/** The answer that refuses a close document; any other 2xx accepts it. */
export const closeDocumentRefusalSchema = z
  .object({
    success: z.literal(false),
    message: z.string().optional().meta({ description: 'Shown to the WMS operator (first 2000 characters)' }),
  })
  .meta({ id: 'CloseDocumentRefusal' });
