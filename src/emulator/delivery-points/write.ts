import type { DeliveryPoint } from '../../wms/index.js';
import { flag, type TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { DELIVERY_POINT_ENTITY, deliveryPointDtos, findDeliveryPointRow } from './rows.js';

const COLUMNS = [
  'active',
  'name',
  'delivery_point',
  'alias',
  'gln',
  'nif',
  'email',
  'phone',
  'url',
  'address',
  'postal_code',
  'city',
  'country',
  'days_to_reserve_expiration_date',
  'allow_expired_lots',
] as const;

function values(input: DeliveryPoint): unknown[] {
  return [
    input.active ? 1 : 0,
    input.name,
    input.deliveryPoint ?? null,
    input.alias ?? null,
    input.gln ?? null,
    input.nif ?? null,
    input.email ?? null,
    input.phone ?? null,
    input.url ?? null,
    input.address ?? null,
    input.postalCode ?? null,
    input.city ?? null,
    input.country ?? null,
    input.daysToReserveExpirationDate ?? null,
    flag(input.allowExpiredLots),
  ];
}

/** `types` is replaced when the request carries it; left out on update, the stored types stay. */
function replaceTypes(ctx: TenantContext, id: number, input: DeliveryPoint): void {
  if (!input.types) return;
  ctx.sql('DELETE FROM delivery_point_types WHERE delivery_point_id = ?').run(id);
  const insert = ctx.sql('INSERT INTO delivery_point_types (delivery_point_id, type) VALUES (?, ?)');
  for (const type of input.types) insert.run(id, type);
}

function current(ctx: TenantContext, externalCode: string): DeliveryPoint {
  return deliveryPointDtos(ctx, [findDeliveryPointRow(ctx, ctx.tenant.id, externalCode)!])[0]!;
}

/** Endpoint 14: answers 200 (as the spec lists); an externalCode already used is a 400. */
export function createDeliveryPoint(ctx: TenantContext, input: DeliveryPoint): DeliveryPoint {
  return ctx.db.transaction(() => {
    if (findDeliveryPointRow(ctx, ctx.tenant.id, input.externalCode)) {
      throw wmsError.badRequest(
        DELIVERY_POINT_ENTITY,
        'deliverypointexists',
        `Delivery point "${input.externalCode}" already exists`,
      );
    }
    const now = ctx.clock.nowMs();
    const { lastInsertRowid } = ctx
      .sql(
        `INSERT INTO delivery_points (tenant_id, external_code, ${COLUMNS.join(', ')}, created_at, updated_at)
         VALUES (?, ?, ${COLUMNS.map(() => '?').join(', ')}, ?, ?)`,
      )
      .run(ctx.tenant.id, input.externalCode, ...values(input), now, now);
    replaceTypes(ctx, Number(lastInsertRowid), input);
    return current(ctx, input.externalCode);
  })();
}

/** Endpoint 15, found by externalCode (unknown: 400 `idnotfound`); every member is replaced. */
export function updateDeliveryPoint(ctx: TenantContext, input: DeliveryPoint): DeliveryPoint {
  return ctx.db.transaction(() => {
    const row = findDeliveryPointRow(ctx, ctx.tenant.id, input.externalCode);
    if (!row)
      throw wmsError.badRequest(
        DELIVERY_POINT_ENTITY,
        'idnotfound',
        `Delivery point "${input.externalCode}" does not exist`,
      );
    ctx
      .sql(`UPDATE delivery_points SET ${COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`)
      .run(...values(input), ctx.clock.nowMs(), row.id);
    replaceTypes(ctx, row.id, input);
    return current(ctx, input.externalCode);
  })();
}

/** Endpoint 16: 404 "delivery point not found". */
export function getDeliveryPoint(ctx: TenantContext, externalCode: string): DeliveryPoint {
  const row = findDeliveryPointRow(ctx, ctx.tenant.id, externalCode);
  if (!row) throw wmsError.notFound(DELIVERY_POINT_ENTITY, `Delivery point "${externalCode}" not found`);
  return deliveryPointDtos(ctx, [row])[0]!;
}
