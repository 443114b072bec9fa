import { z } from 'zod';
import { codeSchema } from './scalars.js';

export const RECEPTION_STATUSES = ['NEW', 'EXECUTING', 'CLOSED', 'CLOSING', 'SUBMITTED'] as const;
export const receptionStatusSchema = z.enum(RECEPTION_STATUSES).meta({ id: 'ReceptionStatus' });
export type ReceptionStatus = z.infer<typeof receptionStatusSchema>;

/** Quantity sign in differences: positive = surplus, negative = shortage. */
export const productLotDifferenceSchema = z
  .object({
    productExternalCode: codeSchema,
    lotCode: z.string().nullish(),
    quantity: z.number(),
  })
  .meta({ id: 'RestAPIProductLotDifferenceDTO' });
export type ProductLotDifference = z.infer<typeof productLotDifferenceSchema>;

export const productDifferenceSchema = z
  .object({
    productExternalCode: codeSchema,
    quantity: z.number(),
  })
  .meta({ id: 'RestAPIProductDifferenceDTO' });
export type ProductDifference = z.infer<typeof productDifferenceSchema>;

export const receptionDifferencesSchema = z
  .object({
    receptionCode: z.string().nullish(),
    receptionStatus: receptionStatusSchema.nullish(),
    documentNumbers: z.array(z.string()).nullish(),
    productLotDifferences: z.array(productLotDifferenceSchema).nullish(),
    productDifferences: z.array(productDifferenceSchema).nullish(),
    nonExistingProductDifferences: z.array(productDifferenceSchema).nullish(),
  })
  .meta({ id: 'RestAPIReceptionDifferencesDTO' });
export type ReceptionDifferences = z.infer<typeof receptionDifferencesSchema>;
