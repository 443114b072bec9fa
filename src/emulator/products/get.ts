import type { Product } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { findProductRow, productDtos } from './rows.js';
import { PRODUCT_ENTITY } from './write.js';

/** Endpoint 4: 404 "product not found". */
export function getProduct(ctx: TenantContext, externalCode: string): Product {
  const row = findProductRow(ctx, ctx.tenant.id, externalCode);
  if (!row) throw wmsError.notFound(PRODUCT_ENTITY, `Product "${externalCode}" not found`);
  return productDtos(ctx, [row])[0]!;
}
