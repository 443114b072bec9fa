import { z } from 'zod';
import { codeSchema, isoDateSchema } from './scalars.js';

export const stockRequestProductSchema = z
  .object({
    product: codeSchema,
    lot: z.string().nullish(),
  })
  .meta({ id: 'RestAPIStockRequestProductDTO' });
export type StockRequestProduct = z.infer<typeof stockRequestProductSchema>;

/**
 * RestAPIStockRequestDTO (endpoint 7). `products`, when present, overrides `product` and `lot`;
 * `location`, when filled, is used instead of `shippingProcess`.
 */
export const stockRequestSchema = z
  .object({
    product: z.string().nullish(),
    lot: z.string().nullish(),
    products: z.array(stockRequestProductSchema).nullish(),
    location: z.string().nullish(),
    shippingProcess: z.string().nullish(),
    groupedByLot: z.boolean().nullish(),
  })
  .meta({ id: 'RestAPIStockRequestDTO' });
export type StockRequest = z.infer<typeof stockRequestSchema>;

/** RestAPIStockDTO: existence = bulk + containers; available = existence - reservedShipping. */
export const stockSchema = z
  .object({
    bulk: z.number().nullish(),
    containers: z.number().nullish(),
    reservedShipping: z.number().nullish(),
    existence: z.number().nullish(),
    available: z.number().nullish(),
    node: z.string().nullish(),
    product: z.string().nullish(),
    lot: z.string().nullish(),
    expirationDate: isoDateSchema.nullish(),
  })
  .meta({ id: 'RestAPIStockDTO' });
export type Stock = z.infer<typeof stockSchema>;

/** Endpoint 7 as sent: a JSON array of rows (one per product, per lot, or per node). */
export const stockListSchema = z.array(stockSchema);

/** Endpoint 7 as a client should read it: the array, or a single row object. */
export const stockResponseSchema = z
  .union([z.array(stockSchema), stockSchema])
  .transform((value) => (Array.isArray(value) ? value : [value]));
