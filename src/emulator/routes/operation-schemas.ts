import { z } from 'zod';
import { codeSchema, isoDateSchema, WEBHOOK_KINDS } from '../../wms/index.js';
import { SNAPSHOT_NAME, SNAPSHOT_NAME_RULE } from '../snapshot/snapshot.js';

/* Inputs of the control API's warehouse actions. Unknown members are refused, like the rest of it. */

const quantity = z.number().positive().finite();
const lotCode = z.string().min(1).max(100).nullish();
const serialNumbers = z.array(codeSchema).max(10_000).nullish();
const location = z.string().min(1).max(100);
const name = z.string().min(1).max(100);

export const warehouseInputSchema = z
  .strictObject({ code: name, externalCode: name.nullish(), shippingProcess: name.nullish() })
  .meta({
    id: 'EmulatorWarehouseInput',
    description: 'A warehouse; externalCode is what stock-regularization webhooks carry as `warehouse`.',
  });

export const warehouseSchema = z
  .object({ code: z.string(), externalCode: z.string().nullable(), shippingProcess: z.string().nullable() })
  .meta({ id: 'EmulatorWarehouse' });

export const wmsProductInputSchema = z
  .strictObject({
    code: name,
    description: z.string().min(1).max(500),
    withLots: z.boolean().optional(),
    withExpirationDate: z.boolean().optional(),
    withSerialNumbers: z.boolean().optional(),
  })
  .meta({ id: 'EmulatorWmsProductInput', description: 'A product created in the WMS itself: no API external code.' });

export const openReceptionSchema = z
  .strictObject({ documents: z.array(codeSchema).min(1).max(100), warehouse: name.optional() })
  .meta({ id: 'EmulatorReceptionInput' });

export const receiveLineSchema = z
  .strictObject({
    productExternalCode: codeSchema,
    quantity,
    lotCode,
    expirationDate: isoDateSchema.nullish(),
    serialNumbers,
    location: location.optional(),
    inContainers: z.boolean().optional(),
    documentExternalCode: codeSchema.optional(),
  })
  .meta({ id: 'EmulatorReceivedLine' });

export const observationsSchema = z
  .strictObject({ observations: z.string().max(2000).optional() })
  .meta({ id: 'EmulatorObservations' });

export const openShippingOrderSchema = z
  .strictObject({ document: codeSchema, warehouse: name.optional() })
  .meta({ id: 'EmulatorShippingOrderInput' });

export const pickSchema = z
  .strictObject({
    lines: z
      .array(
        z.strictObject({
          productExternalCode: codeSchema,
          quantity,
          lotCode,
          location: location.optional(),
          serialNumbers,
        }),
      )
      .min(1)
      .max(1000)
      .optional(),
  })
  .meta({
    id: 'EmulatorPickInput',
    description: 'Without lines: everything the document ordered and is not picked yet.',
  });

const packingInputSchema = z.strictObject({
  ref: name.optional(),
  parent: z.union([name, z.int().positive()]).optional(),
  barcode: name.optional(),
  sscc: z.string().optional(),
  grossWeight: z.number().nonnegative().finite().optional(),
  netWeight: z.number().nonnegative().finite().optional(),
  height: z.number().positive().finite().optional(),
  width: z.number().positive().finite().optional(),
  depth: z.number().positive().finite().optional(),
  containerTypeCode: name.optional(),
  lines: z
    .array(z.strictObject({ productExternalCode: codeSchema, quantity, lotCode, inContainers: z.boolean().optional() }))
    .max(1000)
    .optional(),
});

export const packSchema = z.strictObject({ packings: z.array(packingInputSchema).min(1).max(1000).optional() }).meta({
  id: 'EmulatorPackInput',
  description: 'Without packings: one packing with everything picked and not packed yet.',
});

export const regularizationSchema = z
  .strictObject({
    productExternalCode: codeSchema,
    quantity: z
      .number()
      .finite()
      .refine((q) => q !== 0, 'must not be zero'),
    lotCode,
    warehouse: name.optional(),
    location: location.optional(),
    expirationDate: isoDateSchema.optional(),
    inContainers: z.boolean().optional(),
  })
  .meta({ id: 'EmulatorRegularizationInput' });

const url = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
  // The password would be shown back by GET and the webhook log; username/password carry it.
  .refine((u) => !/^https?:\/\/[^/?#]*@/i.test(u), 'credentials go in username and password, not in the URL')
  .nullish();

export const webhookConfigInputSchema = z
  .strictObject({
    receptionCloseUrl: url,
    clientReturnCloseUrl: url,
    shippingOrderCloseUrl: url,
    supplierReturnCloseUrl: url,
    stockRegularizationUrl: url,
    username: z.string().min(1).max(200).nullish(),
    password: z.string().max(500).nullish(),
    company: z.string().min(1).max(200).nullish(),
    timeoutMs: z.int().min(1).max(120_000).optional(),
    retries: z.int().min(0).max(10).optional(),
    retryDelayMs: z.int().min(0).max(60_000).optional(),
    duplicates: z.int().min(0).max(5).optional(),
  })
  .refine((c) => (c.username == null) === (c.password == null), {
    message: 'username and password go together',
    path: ['password'],
  })
  .meta({ id: 'EmulatorWebhookSettingsInput' });

export const webhookConfigSchema = z
  .object({
    receptionCloseUrl: z.string().nullable(),
    clientReturnCloseUrl: z.string().nullable(),
    shippingOrderCloseUrl: z.string().nullable(),
    supplierReturnCloseUrl: z.string().nullable(),
    stockRegularizationUrl: z.string().nullable(),
    username: z.string().nullable(),
    passwordSet: z.boolean(),
    company: z.string().nullable(),
    timeoutMs: z.int(),
    retries: z.int(),
    retryDelayMs: z.int(),
    duplicates: z.int(),
  })
  .meta({ id: 'EmulatorWebhookSettings' });

export const webhookLogQuerySchema = z.strictObject({
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  kind: z.enum(WEBHOOK_KINDS).optional(),
  closingDocumentCode: z.string().min(1).optional(),
});

export const settleSchema = z
  .strictObject({ timeoutMs: z.int().min(0).max(60_000).optional() })
  .meta({ id: 'EmulatorSettleInput' });

export const faultInputSchema = z
  .strictObject({
    scope: z.enum(['api', 'webhook']).optional(),
    method: z
      .string()
      .regex(/^[A-Za-z]+$/)
      .optional(),
    path: z.string().min(1).max(500),
    status: z.int().min(400).max(599).optional(),
    latencyMs: z.int().min(0).max(120_000).optional(),
    drop: z.boolean().optional(),
    count: z.int().min(1).optional(),
    rate: z.number().min(0).max(1).optional(),
  })
  .refine((f) => f.status !== undefined || f.latencyMs !== undefined || f.drop === true, {
    message: 'give status, latencyMs or drop',
  })
  .refine((f) => !(f.status !== undefined && f.drop), { message: 'status and drop exclude each other', path: ['drop'] })
  .refine((f) => !(f.scope === 'webhook' && f.status !== undefined), {
    message: 'webhook faults delay or drop webhooks; they have no status',
    path: ['status'],
  })
  .meta({ id: 'EmulatorFaultInput' });

export const snapshotNameSchema = z
  .strictObject({
    name: z
      .string()
      .regex(SNAPSHOT_NAME, SNAPSHOT_NAME_RULE)
      .meta({ description: 'A plain name; the file lives in the snapshots folder of the data directory' }),
  })
  .meta({ id: 'EmulatorSnapshotName' });

/** Answers are documented loosely: the views are described in docs/emulator.md. */
export const viewSchema = (id: string) => z.looseObject({}).meta({ id });
