import { type DeliveryPoint, ENTITY_TYPES, type EntityType } from '../../wms/index.js';
import { bool, type EmulatorContext } from '../context.js';
import { compact, groupBy, placeholders } from '../shape.js';

export const DELIVERY_POINT_ENTITY = 'deliveryPoint';

export interface DeliveryPointRow {
  id: number;
  tenant_id: string;
  external_code: string;
  active: number;
  name: string;
  delivery_point: string | null;
  alias: string | null;
  gln: string | null;
  nif: string | null;
  email: string | null;
  phone: string | null;
  url: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  days_to_reserve_expiration_date: number | null;
  allow_expired_lots: number | null;
}

function toDeliveryPoint(row: DeliveryPointRow, types: EntityType[]): DeliveryPoint {
  return compact({
    externalCode: row.external_code,
    active: bool(row.active),
    name: row.name,
    deliveryPoint: row.delivery_point,
    alias: row.alias,
    gln: row.gln,
    nif: row.nif,
    email: row.email,
    phone: row.phone,
    url: row.url,
    address: row.address,
    postalCode: row.postal_code,
    city: row.city,
    country: row.country,
    types,
    daysToReserveExpirationDate: row.days_to_reserve_expiration_date,
    allowExpiredLots: row.allow_expired_lots === null ? null : bool(row.allow_expired_lots),
  });
}

/** Delivery points as the API answers them; `types` in the spec's enum order. */
export function deliveryPointDtos(ctx: EmulatorContext, rows: readonly DeliveryPointRow[]): DeliveryPoint[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const types = ctx
    .sql(
      `SELECT delivery_point_id, type FROM delivery_point_types WHERE delivery_point_id IN (${placeholders(ids.length)})`,
    )
    .all(...ids) as { delivery_point_id: number; type: EntityType }[];
  const typesOf = groupBy(types, (t) => t.delivery_point_id);
  return rows.map((row) => {
    const own = new Set((typesOf.get(row.id) ?? []).map((t) => t.type));
    return toDeliveryPoint(
      row,
      ENTITY_TYPES.filter((t) => own.has(t)),
    );
  });
}

export function findDeliveryPointRow(
  ctx: EmulatorContext,
  tenantId: string,
  externalCode: string,
): DeliveryPointRow | undefined {
  return ctx
    .sql('SELECT * FROM delivery_points WHERE tenant_id = ? AND external_code = ?')
    .get(tenantId, externalCode) as DeliveryPointRow | undefined;
}
