import type { z } from 'zod';
import type { PushEntity } from '../store/index.js';
import { deliveryPointSchema, documentSchema, productSchema } from '../wms/index.js';

/** The ERP API's names for what it sends, as they appear in paths (`/erp/v1/{kind}/…`). */
export const INTAKE_KINDS = ['products', 'delivery-points', 'documents'] as const;
export type IntakeKind = (typeof INTAKE_KINDS)[number];

export interface KindInfo {
  kind: IntakeKind;
  entity: Extract<PushEntity, 'product' | 'delivery-point' | 'document'>;
  /** The spec DTO the ERP sends and the WMS receives. */
  schema: z.ZodType<Record<string, unknown>>;
  label: string;
}

export const KINDS: Record<IntakeKind, KindInfo> = {
  products: { kind: 'products', entity: 'product', schema: productSchema, label: 'product' },
  'delivery-points': {
    kind: 'delivery-points',
    entity: 'delivery-point',
    schema: deliveryPointSchema,
    label: 'delivery point',
  },
  documents: { kind: 'documents', entity: 'document', schema: documentSchema, label: 'document' },
};

export function kindOf(entity: PushEntity): IntakeKind | undefined {
  return INTAKE_KINDS.find((k) => KINDS[k].entity === entity);
}

/** Largest batch the ERP may send in one request. */
export const MAX_BATCH_ITEMS = 1000;
