import { z } from 'zod';
import { codeSchema, int32Schema, int64Schema, uniqueArray } from './scalars.js';

export const ENTITY_TYPES = ['SUPPLIER', 'CLIENT'] as const;
export const entityTypeSchema = z.enum(ENTITY_TYPES).meta({ id: 'EntityType' });
export type EntityType = z.infer<typeof entityTypeSchema>;

export const deliveryPointSchema = z
  .object({
    externalCode: codeSchema,
    active: z.boolean(),
    name: z.string(),
    deliveryPoint: z.string().nullish(),
    alias: z.string().nullish(),
    gln: z.string().nullish(),
    nif: z.string().nullish(),
    email: z.string().nullish(),
    phone: z.string().nullish(),
    url: z.string().nullish(),
    address: z.string().nullish(),
    postalCode: z.string().nullish(),
    city: z.string().nullish(),
    country: z.string().nullish(),
    types: uniqueArray(entityTypeSchema).nullish(),
    daysToReserveExpirationDate: int32Schema.nullish(),
    allowExpiredLots: z.boolean().nullish(),
  })
  .meta({ id: 'RestAPIDeliveryPointDTO' });
export type DeliveryPoint = z.infer<typeof deliveryPointSchema>;
export type DeliveryPointInput = z.input<typeof deliveryPointSchema>;

/** The value of a DeliveryPointCategoryFilter member (delivery point criteria `categories`). */
export const deliveryPointCategorySchema = z
  .object({
    id: int64Schema.nullish(),
    description: z.string(),
    active: z.boolean().nullish(),
  })
  .meta({ id: 'DeliveryPointCategory' });
export type DeliveryPointCategory = z.infer<typeof deliveryPointCategorySchema>;
