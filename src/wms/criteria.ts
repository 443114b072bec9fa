import { z } from 'zod';
import { deliveryPointCategorySchema, entityTypeSchema } from './delivery-point.js';
import { documentStatusSchema } from './document.js';
import { barcodeTypeSchema } from './product.js';
import { int32Schema, int64Schema, isoDateSchema, isoDateTimeSchema } from './scalars.js';

/*
 * JHipster query filters (tech.jhipster.service.filter.*). Each member is optional; a criteria
 * object is a set of named filters combined with AND.
 */

const EQUALITY_OPERATORS = ['equals', 'notEquals', 'specified', 'in', 'notIn'] as const;
const RANGE_OPERATORS = ['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual'] as const;
const TEXT_OPERATORS = ['contains', 'doesNotContain'] as const;

export type FilterOperator =
  | (typeof EQUALITY_OPERATORS)[number]
  | (typeof RANGE_OPERATORS)[number]
  | (typeof TEXT_OPERATORS)[number];
export const LIST_OPERATORS: ReadonlySet<FilterOperator> = new Set(['in', 'notIn']);

function equalityFilter<T extends z.ZodType>(value: T) {
  return z.object({
    equals: value.optional(),
    notEquals: value.optional(),
    specified: z.boolean().optional(),
    in: z.array(value).optional(),
    notIn: z.array(value).optional(),
  });
}

function rangeFilter<T extends z.ZodType>(value: T) {
  return equalityFilter(value).extend({
    greaterThan: value.optional(),
    lessThan: value.optional(),
    greaterThanOrEqual: value.optional(),
    lessThanOrEqual: value.optional(),
  });
}

export const stringFilterSchema = equalityFilter(z.string())
  .extend({ contains: z.string().optional(), doesNotContain: z.string().optional() })
  .meta({ id: 'StringFilter' });
export const booleanFilterSchema = equalityFilter(z.boolean()).meta({ id: 'BooleanFilter' });
export const longFilterSchema = rangeFilter(int64Schema).meta({ id: 'LongFilter' });
export const integerFilterSchema = rangeFilter(int32Schema).meta({ id: 'IntegerFilter' });
export const localDateFilterSchema = rangeFilter(isoDateSchema).meta({ id: 'LocalDateFilter' });
export const instantFilterSchema = rangeFilter(isoDateTimeSchema).meta({ id: 'InstantFilter' });
export const typeOfBarcodeFilterSchema = equalityFilter(barcodeTypeSchema).meta({ id: 'TypeOfBarcodeFilter' });
export const receptionNoteStatusFilterSchema = equalityFilter(documentStatusSchema).meta({
  id: 'ReceptionNoteStatusFilter',
});
export const entityTypeFilterSchema = equalityFilter(entityTypeSchema).meta({ id: 'EntityTypeFilter' });
export const deliveryPointCategoryFilterSchema = equalityFilter(deliveryPointCategorySchema).meta({
  id: 'DeliveryPointCategoryFilter',
});

export const filterSchemas = {
  string: stringFilterSchema,
  boolean: booleanFilterSchema,
  long: longFilterSchema,
  integer: integerFilterSchema,
  localDate: localDateFilterSchema,
  instant: instantFilterSchema,
  typeOfBarcode: typeOfBarcodeFilterSchema,
  receptionNoteStatus: receptionNoteStatusFilterSchema,
  entityType: entityTypeFilterSchema,
  deliveryPointCategory: deliveryPointCategoryFilterSchema,
} as const;
export type FilterKind = keyof typeof filterSchemas;
export type FilterOf<K extends FilterKind> = z.infer<(typeof filterSchemas)[K]>;

/** Operators each filter type offers, in the order the spec lists them. */
export const FILTER_OPERATORS: Record<FilterKind, readonly FilterOperator[]> = {
  string: [...EQUALITY_OPERATORS, ...TEXT_OPERATORS],
  boolean: EQUALITY_OPERATORS,
  long: [...EQUALITY_OPERATORS, ...RANGE_OPERATORS],
  integer: [...EQUALITY_OPERATORS, ...RANGE_OPERATORS],
  localDate: [...EQUALITY_OPERATORS, ...RANGE_OPERATORS],
  instant: [...EQUALITY_OPERATORS, ...RANGE_OPERATORS],
  typeOfBarcode: EQUALITY_OPERATORS,
  receptionNoteStatus: EQUALITY_OPERATORS,
  entityType: EQUALITY_OPERATORS,
  deliveryPointCategory: EQUALITY_OPERATORS,
};

export type CriteriaFields = Readonly<Record<string, FilterKind>>;

/** Each criteria member's filter type, as the spec lists them. */
export const PRODUCT_CRITERIA_FIELDS = {
  id: 'long',
  active: 'boolean',
  sku: 'string',
  description: 'string',
  abbreviation: 'string',
  withLots: 'boolean',
  withStock: 'boolean',
  belowMinimumStock: 'boolean',
  withLotsActive: 'boolean',
  withSerialNumbersActive: 'boolean',
  withSerialNumbers: 'boolean',
  withSecurityDevice: 'boolean',
  withExpirationDate: 'boolean',
  detailsId: 'long',
  warehouseId: 'long',
  packagingId: 'long',
  serialNumbersId: 'long',
  serialNumber: 'string',
  lotCode: 'string',
  lotsId: 'long',
  barcodesId: 'long',
  expirationDate: 'localDate',
  barcodesCode: 'string',
  skuOrDescription: 'string',
  typeOfBarcode: 'typeOfBarcode',
  clientId: 'long',
  abcClass: 'string',
  labelId: 'long',
  search: 'string',
  isExpiredGroup: 'boolean',
  isWithStockGroup: 'boolean',
  isBelowMinimumGroup: 'boolean',
} as const satisfies CriteriaFields;

/** ReceptionNoteCriteria, the document criteria. */
export const DOCUMENT_CRITERIA_FIELDS = {
  id: 'long',
  year: 'integer',
  series: 'string',
  number: 'integer',
  codeOrNumberOrReference: 'string',
  code: 'string',
  originCode: 'string',
  externalCode: 'string',
  status: 'receptionNoteStatus',
  priority: 'integer',
  deliveryDate: 'localDate',
  documentDate: 'localDate',
  reference: 'string',
  observation: 'string',
  originDescription: 'string',
  destinationDescription: 'string',
  deliveryPointName: 'string',
  originId: 'long',
  destinationId: 'long',
  deliveryPointId: 'long',
  deliveryPointAddressId: 'long',
  deliveryTarget: 'string',
  linesId: 'long',
  pickingsId: 'long',
  receptionsId: 'long',
  receptionsIdOrNull: 'long',
  receptionProcessId: 'long',
  lastModifiedDate: 'instant',
  search: 'string',
  isDoneGroup: 'boolean',
  isErrorGroup: 'boolean',
} as const satisfies CriteriaFields;

export const DELIVERY_POINT_CRITERIA_FIELDS = {
  id: 'long',
  deliveryPoint: 'string',
  externalCode: 'string',
  aliasOrName: 'string',
  gln: 'string',
  nif: 'string',
  address: 'string',
  postalCode: 'string',
  city: 'string',
  country: 'string',
  active: 'boolean',
  nmvsActive: 'boolean',
  nmvsActiveIn: 'boolean',
  nmvsActiveOut: 'boolean',
  shippingProcessId: 'long',
  types: 'entityType',
  categories: 'deliveryPointCategory',
  daysToReserveExpirationDate: 'integer',
  allowExpiredLots: 'boolean',
  clientId: 'long',
  addressId: 'long',
  search: 'string',
  isClientGroup: 'boolean',
  isSupplierGroup: 'boolean',
} as const satisfies CriteriaFields;

type CriteriaShape<F extends CriteriaFields> = { [K in keyof F]: z.ZodOptional<(typeof filterSchemas)[F[K]]> };

export function criteriaSchema<F extends CriteriaFields>(fields: F): z.ZodObject<CriteriaShape<F>> {
  const shape = Object.fromEntries(
    Object.entries(fields).map(([name, kind]) => [name, filterSchemas[kind].optional()]),
  );
  return z.object(shape as CriteriaShape<F>);
}

export const productCriteriaSchema = criteriaSchema(PRODUCT_CRITERIA_FIELDS).meta({ id: 'ProductCriteria' });
export type ProductCriteria = z.infer<typeof productCriteriaSchema>;
export const documentCriteriaSchema = criteriaSchema(DOCUMENT_CRITERIA_FIELDS).meta({ id: 'ReceptionNoteCriteria' });
export type DocumentCriteria = z.infer<typeof documentCriteriaSchema>;
export const deliveryPointCriteriaSchema = criteriaSchema(DELIVERY_POINT_CRITERIA_FIELDS).meta({
  id: 'DeliveryPointCriteria',
});
export type DeliveryPointCriteria = z.infer<typeof deliveryPointCriteriaSchema>;

/** A criteria object over any field map: what the query-string codec reads and writes. */
export type Criteria<F extends CriteriaFields = CriteriaFields> = { [K in keyof F]?: FilterOf<F[K]> };

/** Spring's Pageable: `page` 0-based (min 0), `size` (min 1), `sort` entries `property,asc|desc`. */
export const pageableSchema = z
  .object({
    page: z.int32().min(0).optional(),
    size: z.int32().min(1).optional(),
    sort: z.array(z.string()).optional(),
  })
  .meta({ id: 'Pageable' });
export type Pageable = z.infer<typeof pageableSchema>;

export const DEFAULT_PAGE_SIZE = 20;
