import { z } from 'zod';
import { codeSchema, int32Schema, isoDateSchema, isoDateTimeSchema, uniqueArray } from './scalars.js';

export const DOCUMENT_TYPES = [
  'WAREHOUSE_TRANSFER_IN',
  'WAREHOUSE_TRANSFER_OUT',
  'PURCHASE_ORDER',
  'CLIENT_RETURN',
  'SUPPLIER_RETURN',
  'CLIENT_EXPEDITION',
  'FACTORY_DELIVER',
  'FACTORY_DELIVERY',
  'PRODUCTION_RETURN',
] as const;
export const documentTypeSchema = z.enum(DOCUMENT_TYPES).meta({ id: 'DocumentType' });
export type DocumentType = z.infer<typeof documentTypeSchema>;

/** Document status values (the spec's ReceptionNoteStatus, used as a filter on listing). */
export const DOCUMENT_STATUSES = ['DRAFT', 'CREATED', 'IN_PROGRESS', 'EXECUTED', 'CANCELLED'] as const;
export const documentStatusSchema = z.enum(DOCUMENT_STATUSES).meta({ id: 'ReceptionNoteStatus' });
export type DocumentStatus = z.infer<typeof documentStatusSchema>;

export const categoryAllocationSchema = z
  .object({
    category: z.string(),
    quantity: z.number(),
  })
  .meta({ id: 'RestAPICategoryDTO' });
export type CategoryAllocation = z.infer<typeof categoryAllocationSchema>;

export const documentLineSchema = z
  .object({
    lineNumber: int32Schema,
    quantity: z.number(),
    productExternalCode: codeSchema,
    lotCode: z.string().nullish(),
    supplierLotCode: z.string().nullish(),
    supplierCode: z.string().nullish(),
    serialNumber: z.string().nullish(),
    externalCode: z.string().nullish(),
    qualityStatusCode: z.string().nullish(),
    containerCode: z.string().nullish(),
    categories: uniqueArray(categoryAllocationSchema).nullish(),
  })
  .meta({ id: 'RestAPIDocumentLineDTO' });
export type DocumentLine = z.infer<typeof documentLineSchema>;

/** RestAPIDocumentDTO. `externalCode` is the idempotency key of create (endpoint 9). */
export const documentSchema = z
  .object({
    externalCode: codeSchema,
    documentNumber: z.string(),
    documentType: documentTypeSchema,
    documentExternalType: z.string().nullish(),
    reference: z.string().nullish(),
    observations: z.string().nullish(),
    documentDate: isoDateSchema.nullish(),
    originExternalCode: z.string().nullish(),
    destinationExternalCode: z.string().nullish(),
    deliveryPointExternalCode: z.string().nullish(),
    deliveryDate: isoDateTimeSchema.nullish(),
    charge: z.boolean().nullish(),
    chargeValue: z.number().nullish(),
    carrier: z.string().nullish(),
    deliveryPlace: z.string().nullish(),
    lines: uniqueArray(documentLineSchema).nullish(),
  })
  .meta({ id: 'RestAPIDocumentDTO' });
export type Document = z.infer<typeof documentSchema>;
export type DocumentInput = z.input<typeof documentSchema>;

export const documentCancelSchema = z
  .object({
    externalCode: codeSchema,
    documentType: documentTypeSchema,
  })
  .meta({ id: 'RestAPIDocumentCancelDTO' });
export type DocumentCancel = z.infer<typeof documentCancelSchema>;

/** RestAPIResultDTO, the answer of endpoint 12. */
export const resultSchema = z
  .object({
    success: z.boolean().nullish(),
    message: z.string().nullish(),
  })
  .meta({ id: 'RestAPIResultDTO' });
export type Result = z.infer<typeof resultSchema>;
