import { z } from 'zod';
import { int32Schema, int64Schema } from './scalars.js';

/** RestAPIClosePackingDTO (endpoints 18 and 19). Weights in kg, dimensions in cm, volume in m3. */
export const packingSchema = z
  .object({
    id: int64Schema.nullish(),
    year: int32Schema.nullish(),
    series: z.string().nullish(),
    number: int32Schema.nullish(),
    barcode: z.string().nullish(),
    sscc: z.string().nullish(),
    grossWeight: z.number().nullish(),
    netWeight: z.number().nullish(),
    height: z.number().nullish(),
    width: z.number().nullish(),
    depth: z.number().nullish(),
    volume: z.number().nullish(),
    bulk: z.number().nullish(),
    containers: z.number().nullish(),
    parent: int64Schema.nullish(),
    containerTypeCode: z.string().nullish(),
    productExternalCode: z.string().nullish(),
    lotCode: z.string().nullish(),
  })
  .meta({ id: 'RestAPIClosePackingDTO' });
export type Packing = z.infer<typeof packingSchema>;

/**
 * Endpoints 18 and 19 as the emulator sends them: a JSON array, one row per packing and
 * product/lot it holds (a shipment has several packings; each DTO names one product).
 */
export const packingListSchema = z.array(packingSchema);

/** Endpoints 18 and 19 as a client should read them: the array, or a single packing object. */
export const packingResponseSchema = z
  .union([z.array(packingSchema), packingSchema])
  .transform((value) => (Array.isArray(value) ? value : [value]));

/** Query of endpoint 18. */
export const packingByExternalCodeQuerySchema = z.object({
  warehouse: z.string().min(1),
  externalCode: z.string().min(1),
});

/** Query of endpoint 19. */
export const packingByDocumentCodeQuerySchema = z.object({
  warehouse: z.string().min(1),
  documentCode: z.string().min(1),
});
