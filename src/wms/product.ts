import { z } from 'zod';
import { codeSchema, int32Schema, isoDateSchema, uniqueArray } from './scalars.js';

export const HANDLING_UNITS = [
  'UN',
  'KG',
  'M',
  'M2',
  'L',
  'M3',
  'LB',
  'KGM',
  'IN',
  'FT',
  'YD',
  'IN2',
  'FT2',
  'YD2',
  'IN3',
  'FT3',
  'YD3',
  'TOZ',
  'OZ',
  'GAL',
] as const;
export const handlingUnitSchema = z.enum(HANDLING_UNITS).meta({ id: 'HandlingUnit' });
export type HandlingUnit = z.infer<typeof handlingUnitSchema>;

export const BARCODE_TYPES = [
  'GTIN',
  'GRAI',
  'GIAI',
  'CPID',
  'GMN',
  'PRODUCT_CODE',
  'CNP',
  'INVOICING_ID',
  'ACCOUNTING_CODE',
  'SHOP_A_SKU',
  'SHOP_B_SKU',
  'MARKETPLACE_SKU',
  'API_ID',
  'OTHER',
] as const;
export const barcodeTypeSchema = z.enum(BARCODE_TYPES).meta({ id: 'TypeOfBarcode' });
export type BarcodeType = z.infer<typeof barcodeTypeSchema>;

export const barcodeSchema = z
  .object({
    code: codeSchema,
    type: barcodeTypeSchema,
  })
  .meta({ id: 'RestAPIBarcodeDTO' });
export type Barcode = z.infer<typeof barcodeSchema>;

export const lotSchema = z
  .object({
    code: codeSchema,
    active: z.boolean(),
    expirationDate: isoDateSchema.nullish(),
    withSerialNumbers: z.boolean().nullish(),
    withExpirationDate: z.boolean().nullish(),
    daysToNotifyExpirationDate: int32Schema.nullish(),
  })
  .meta({ id: 'RestAPILotDTO' });
export type Lot = z.infer<typeof lotSchema>;

/**
 * RestAPIProductDTO. Optional members also accept `null` (Jackson writes absent values as null).
 * `active` is read-only: the WMS stores every API product as active and ignores a sent value.
 */
export const productSchema = z
  .object({
    externalCode: codeSchema,
    active: z.boolean().nullish(),
    description: z.string(),
    code: z.string().nullish(),
    abbreviation: z.string().nullish(),
    observations: z.string().nullish(),
    withLots: z.boolean().nullish(),
    withSerialNumbers: z.boolean().nullish(),
    withExpirationDate: z.boolean().nullish(),
    withSecurityDevice: z.boolean().nullish(),
    handlingUnit: handlingUnitSchema.nullish(),
    weight: z.number().nullish(),
    barcodes: uniqueArray(barcodeSchema).nullish(),
    lots: uniqueArray(lotSchema).nullish(),
    daysToNotifyExpirationDate: int32Schema.nullish(),
  })
  .meta({ id: 'RestAPIProductDTO' });
export type Product = z.infer<typeof productSchema>;
export type ProductInput = z.input<typeof productSchema>;

/** Endpoint 5 body: the observations as one JSON string. */
export const productObservationsSchema = z.string().meta({ id: 'ProductObservations' });

/** Endpoint 6 as sent: one JSON string holding the external codes, comma-separated. */
export const productExternalCodesSchema = z.string().meta({ id: 'ProductExternalCodes' });

/** Endpoint 6 as a client should read it: the string form, or a JSON array of codes. */
export const productExternalCodesResponseSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : splitExternalCodes(value)));

export function splitExternalCodes(value: string): string[] {
  return value
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code.length > 0);
}
