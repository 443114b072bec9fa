import type { Product } from '../../wms/index.js';
import { flag, type TenantContext } from '../context.js';
import { wmsError } from '../errors.js';

export const PRODUCT_ENTITY = 'product';

/** The spec's SKU rule: `code` is the SKU, externalCode when omitted; unique across the tenant. */
export function resolveSku(ctx: TenantContext, input: Product, selfId?: number): string {
  const sku = input.code || input.externalCode;
  const owner = ctx.sql('SELECT id FROM products WHERE tenant_id = ? AND sku = ?').get(ctx.tenant.id, sku) as
    | { id: number }
    | undefined;
  if (owner && owner.id !== selfId) {
    throw wmsError.badRequest(PRODUCT_ENTITY, 'skuexists', 'Product SKU already exists', 'Product SKU already exists');
  }
  return sku;
}

/** withLots / withExpirationDate are forced true by the tenant's API_WITH_LOT / API_WITH_EXPIRATION_DATE. */
export function forcedFlags(ctx: TenantContext, input: Product): { withLots: boolean; withExpirationDate: boolean } {
  return {
    withLots: ctx.tenant.settings.API_WITH_LOT || (input.withLots ?? false),
    withExpirationDate: ctx.tenant.settings.API_WITH_EXPIRATION_DATE || (input.withExpirationDate ?? false),
  };
}

export function assertDistinctLotCodes(input: Product): void {
  const codes = (input.lots ?? []).map((l) => l.code);
  const repeated = codes.find((code, i) => codes.indexOf(code) !== i);
  if (repeated !== undefined) throw wmsError.validation(PRODUCT_ENTITY, `lots: lot code "${repeated}" appears twice`);
}

export function replaceBarcodes(ctx: TenantContext, productId: number, input: Product): void {
  if (!input.barcodes) return;
  ctx.sql('DELETE FROM product_barcodes WHERE product_id = ?').run(productId);
  const insert = ctx.sql('INSERT INTO product_barcodes (product_id, code, type) VALUES (?, ?, ?)');
  for (const barcode of input.barcodes) insert.run(productId, barcode.code, barcode.type);
}

/** Lots are upserted by code and never deleted through the API: warehouse stock may refer to them. */
export function upsertLots(ctx: TenantContext, productId: number, input: Product): void {
  const upsert = ctx.sql(
    `INSERT INTO product_lots (product_id, code, active, expiration_date, with_serial_numbers, with_expiration_date, days_to_notify_expiration_date)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (product_id, code) DO UPDATE SET active = excluded.active, expiration_date = excluded.expiration_date,
       with_serial_numbers = excluded.with_serial_numbers, with_expiration_date = excluded.with_expiration_date,
       days_to_notify_expiration_date = excluded.days_to_notify_expiration_date`,
  );
  for (const lot of input.lots ?? []) {
    upsert.run(
      productId,
      lot.code,
      lot.active ? 1 : 0,
      lot.expirationDate ?? null,
      flag(lot.withSerialNumbers),
      flag(lot.withExpirationDate),
      lot.daysToNotifyExpirationDate ?? null,
    );
  }
}
