import type { Product } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { getProduct } from './get.js';
import { findProductRow } from './rows.js';
import {
  assertDistinctLotCodes,
  forcedFlags,
  PRODUCT_ENTITY,
  replaceBarcodes,
  resolveSku,
  upsertLots,
} from './write.js';

/**
 * Endpoint 3, found by externalCode (unknown: 400 `idnotfound`, the spec lists only 400 here).
 * Scalars are replaced (the SKU only when `code` is sent); withSerialNumbers and withSecurityDevice keep their stored values;
 * barcodes are replaced and lots upserted only when the request carries them.
 */
export function updateProduct(ctx: TenantContext, input: Product): Product {
  return ctx.db.transaction(() => {
    assertDistinctLotCodes(input);
    const row = findProductRow(ctx, ctx.tenant.id, input.externalCode);
    if (!row) throw wmsError.badRequest(PRODUCT_ENTITY, 'idnotfound', `Product "${input.externalCode}" does not exist`);
    // spec: "When omitted, externalCode is used as the SKU" is the creation rule: an update without
    // `code` keeps the SKU the product has.
    const sku = input.code ? resolveSku(ctx, input, row.id) : row.sku;
    const flags = forcedFlags(ctx, input);
    ctx
      .sql(
        `UPDATE products SET sku = ?, description = ?, abbreviation = ?, observations = ?, with_lots = ?, with_expiration_date = ?,
           handling_unit = ?, weight = ?, days_to_notify_expiration_date = ?, updated_at = ? WHERE id = ?`,
      )
      .run(
        sku,
        input.description,
        input.abbreviation ?? null,
        input.observations ?? null,
        flags.withLots ? 1 : 0,
        flags.withExpirationDate ? 1 : 0,
        input.handlingUnit ?? null,
        input.weight ?? null,
        input.daysToNotifyExpirationDate ?? null,
        ctx.clock.nowMs(),
        row.id,
      );
    replaceBarcodes(ctx, row.id, input);
    upsertLots(ctx, row.id, input);
    return getProduct(ctx, input.externalCode);
  })();
}
