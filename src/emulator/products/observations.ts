import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { PRODUCT_ENTITY } from './write.js';

/** Endpoint 5: the body is the observations as one JSON string; answers `true`. */
export function updateProductObservations(ctx: TenantContext, externalCode: string, observations: string): true {
  const changed = ctx
    .sql(
      "UPDATE products SET observations = ?, updated_at = ? WHERE tenant_id = ? AND external_code = ? AND origin = 'api'",
    )
    .run(observations, ctx.clock.nowMs(), ctx.tenant.id, externalCode);
  if (changed.changes === 0) throw wmsError.notFound(PRODUCT_ENTITY, `Product "${externalCode}" not found`);
  return true;
}

/** Endpoint 6: every external code of the tenant, in creation order, as one comma-separated string. */
export function allProductExternalCodes(ctx: TenantContext): string {
  const rows = ctx
    .sql("SELECT external_code FROM products WHERE tenant_id = ? AND origin = 'api' ORDER BY id")
    .raw()
    .all(ctx.tenant.id) as [string][];
  return rows.map((r) => r[0]).join(',');
}
