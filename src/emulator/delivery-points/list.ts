import { DELIVERY_POINT_CRITERIA_FIELDS, type DeliveryPoint } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { absent, anyOf, type CriteriaSql, child, expr } from '../criteria/field-sql.js';
import { type ListSpec, listFromQuery } from '../criteria/list.js';
import { DELIVERY_POINT_ENTITY, type DeliveryPointRow, deliveryPointDtos } from './rows.js';

const typesWhere = (condition: string) =>
  `dp.id IN (SELECT t.delivery_point_id FROM delivery_point_types t WHERE ${condition})`;

/** Delivery point criteria on the emulator's tables; NMVS flags are false, categories absent. */
export const DELIVERY_POINT_CRITERIA_SQL: CriteriaSql<typeof DELIVERY_POINT_CRITERIA_FIELDS> = {
  id: expr('dp.id'),
  deliveryPoint: expr('dp.delivery_point'),
  externalCode: expr('dp.external_code'),
  aliasOrName: anyOf('dp.alias', 'dp.name'),
  gln: expr('dp.gln'),
  nif: expr('dp.nif'),
  address: expr('dp.address'),
  postalCode: expr('dp.postal_code'),
  city: expr('dp.city'),
  country: expr('dp.country'),
  active: expr('dp.active'),
  nmvsActive: expr('0'),
  nmvsActiveIn: expr('0'),
  nmvsActiveOut: expr('0'),
  shippingProcessId: absent,
  types: child('dp.id', 'delivery_point_types t', 't.delivery_point_id', 't.type'),
  categories: absent,
  daysToReserveExpirationDate: expr('dp.days_to_reserve_expiration_date'),
  allowExpiredLots: expr('dp.allow_expired_lots'),
  clientId: absent,
  addressId: absent,
  search: anyOf('dp.name', 'dp.alias', 'dp.external_code', 'dp.delivery_point', 'dp.city'),
  isClientGroup: expr(typesWhere("t.type = 'CLIENT'")),
  isSupplierGroup: expr(typesWhere("t.type = 'SUPPLIER'")),
};

const SPEC: ListSpec = {
  entityName: DELIVERY_POINT_ENTITY,
  from: 'delivery_points dp',
  alias: 'dp',
  fields: DELIVERY_POINT_CRITERIA_FIELDS,
  mapping: DELIVERY_POINT_CRITERIA_SQL,
  sortable: {
    id: 'dp.id',
    externalCode: 'dp.external_code',
    name: 'dp.name',
    alias: 'dp.alias',
    deliveryPoint: 'dp.delivery_point',
    city: 'dp.city',
    country: 'dp.country',
    postalCode: 'dp.postal_code',
    active: 'dp.active',
  },
};

/** Endpoint 13. */
export function listDeliveryPoints(
  ctx: TenantContext,
  requestUrl: string,
): { body: DeliveryPoint[]; headers: Record<string, string> } {
  const page = listFromQuery<DeliveryPointRow>(ctx, SPEC, requestUrl);
  return { body: deliveryPointDtos(ctx, page.rows), headers: page.headers };
}
