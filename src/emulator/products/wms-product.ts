import type { TenantContext } from '../context.js';
import { ControlError } from '../errors.js';

export interface WmsProductInput {
  code: string;
  description: string;
  withLots?: boolean | undefined;
  withExpirationDate?: boolean | undefined;
  withSerialNumbers?: boolean | undefined;
}

/**
 * A product created in the WMS itself, not through the API: it has no API external code, so the
 * API does not show it and stock regularizations of it send no webhook (spec: "only for products
 * that have an API external code"). Control actions refer to it by its code.
 */
export function createWmsProduct(ctx: TenantContext, input: WmsProductInput): WmsProductInput {
  const taken = ctx
    .sql('SELECT 1 FROM products WHERE tenant_id = ? AND (sku = ? OR external_code = ?)')
    .get(ctx.tenant.id, input.code, input.code);
  if (taken) throw new ControlError(409, 'product_exists', `A product with code "${input.code}" already exists`);
  const now = ctx.clock.nowMs();
  ctx
    .sql(
      `INSERT INTO products (tenant_id, external_code, sku, description, with_lots, with_serial_numbers, with_expiration_date,
         with_security_device, origin, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'wms', ?, ?)`,
    )
    .run(
      ctx.tenant.id,
      input.code,
      input.code,
      input.description,
      input.withLots ? 1 : 0,
      input.withSerialNumbers ? 1 : 0,
      input.withExpirationDate ? 1 : 0,
      now,
      now,
    );
  return {
    code: input.code,
    description: input.description,
    withLots: input.withLots ?? false,
    withExpirationDate: input.withExpirationDate ?? false,
    withSerialNumbers: input.withSerialNumbers ?? false,
  };
}
