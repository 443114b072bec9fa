import type { Product } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { getProduct } from './get.js';
import {
  assertDistinctLotCodes,
  forcedFlags,
  PRODUCT_ENTITY,
  replaceBarcodes,
  resolveSku,
  upsertLots,
} from './write.js';

/**
 * Endpoint 2. Stored active; SKU rule; forced flags; withSerialNumbers and withSecurityDevice
 * taken from this request (creation is the only time they apply). An externalCode that already
 * exists is refused (use endpoint 3 to change a product).
 */
export function createProduct(ctx: TenantContext, input: Product): Product {
  return ctx.db.transaction(() => {
    assertDistinctLotCodes(input);
    const exists = ctx
      .sql('SELECT 1 FROM products WHERE tenant_id = ? AND external_code = ?')
      .get(ctx.tenant.id, input.externalCode);
    if (exists)
      throw wmsError.badRequest(PRODUCT_ENTITY, 'productexists', `Product "${input.externalCode}" already exists`);
    const sku = resolveSku(ctx, input);
    const flags = forcedFlags(ctx, input);
    const now = ctx.clock.nowMs();
    const { lastInsertRowid } = ctx
      .sql(
        `INSERT INTO products (tenant_id, external_code, sku, description, abbreviation, observations, with_lots, with_serial_numbers,
           with_expiration_date, with_security_device, handling_unit, weight, days_to_notify_expiration_date, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        ctx.tenant.id,
        input.externalCode,
        sku,
        input.description,
        input.abbreviation ?? null,
        input.observations ?? null,
        flags.withLots ? 1 : 0,
        input.withSerialNumbers ? 1 : 0,
        flags.withExpirationDate ? 1 : 0,
        input.withSecurityDevice ? 1 : 0,
        input.handlingUnit ?? null,
        input.weight ?? null,
        input.daysToNotifyExpirationDate ?? null,
        now,
        now,
      );
    replaceBarcodes(ctx, Number(lastInsertRowid), input);
    upsertLots(ctx, Number(lastInsertRowid), input);
    return getProduct(ctx, input.externalCode);
  })();
}
