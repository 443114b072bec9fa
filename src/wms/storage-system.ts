import { z } from 'zod';
import { int32Schema, isoDateTimeSchema } from './scalars.js';

/** One dispatch result line from an automated storage system (endpoint 20). Meanings: not shown. */
export const storageSystemLineSchema = z
  .object({
    orderNumber: z.string().nullish(),
    completedDate: isoDateTimeSchema.nullish(),
    lineNumber: int32Schema.nullish(),
    productCode: z.string().nullish(),
    lot: z.string().nullish(),
    serialNumber: z.string().nullish(),
    quantity: z.number().nullish(),
    dispatchedDate: isoDateTimeSchema.nullish(),
    container: z.string().nullish(),
    user: z.string().nullish(),
  })
  .meta({ id: 'StorageSystemDispatchedLine' });
export type StorageSystemLine = z.infer<typeof storageSystemLineSchema>;

export const storageSystemDispatchedSchema = z.array(storageSystemLineSchema);

export const commonResultSchema = z
  .object({
    success: z.boolean().nullish(),
    message: z.string().nullish(),
    orderName: z.string().nullish(),
    errorKey: z.string().nullish(),
  })
  .meta({ id: 'CommonResult' });
export type CommonResult = z.infer<typeof commonResultSchema>;
