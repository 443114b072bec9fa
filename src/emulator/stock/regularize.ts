import { stockRegularizationPayloadSchema } from '../../wms/index.js';
import type { ActionResult } from '../action.js';
import type { TenantContext } from '../context.js';
import { ControlError } from '../errors.js';
import { findAnyProductRow } from '../products/rows.js';
import { DEFAULT_LOCATION, resolveWarehouse } from '../warehouses/warehouses.js';
import { queueWebhook } from '../webhooks/queue.js';
import { checkTracking, ensureLot } from './lot-rules.js';
import { round } from './quantity.js';
import { addStock, allocate, takeFromRow } from './store.js';

export interface RegularizationInput {
  productExternalCode: string;
  /** Positive adds stock, negative removes it. */
  quantity: number;
  lotCode?: string | null | undefined;
  warehouse?: string | undefined;
  /** Where stock is added (default STOCK) or removed from (default: any location of the warehouse). */
  location?: string | undefined;
  expirationDate?: string | undefined;
  inContainers?: boolean | undefined;
}

export interface Regularization {
  productExternalCode: string;
  lotCode: string | null;
  warehouse: string;
  quantity: number;
  movementTime: string;
  /** False for products created in the WMS itself: no webhook (spec: "only for products that have an API external code"). */
  webhook: boolean;
}

/**
 * Adds or removes stock of one product and lot outside receptions and shipping (spec: "Stock is
 * adjusted outside normal reception/shipping flows"). A removal takes only available units (not
 * reserved for shipping): 409 `insufficient_stock` otherwise. Queues one stock-regularization
 * webhook for the product and lot when the product has an API external code; `lotCode` is null
 * when the product is not lot-tracked, `warehouse` is the warehouse's external code or null.
 */
export function regularizeStock(ctx: TenantContext, input: RegularizationInput): ActionResult<Regularization> {
  const outcome = ctx.db.transaction(() => {
    const product = findAnyProductRow(ctx, ctx.tenant.id, input.productExternalCode);
    if (!product)
      throw new ControlError(404, 'product_not_found', `Product "${input.productExternalCode}" does not exist`);
    checkTracking(
      ctx,
      product,
      { quantity: Math.abs(input.quantity), lotCode: input.lotCode, expirationDate: input.expirationDate },
      { needsExpiry: input.quantity > 0, serials: false },
    );
    const warehouse = resolveWarehouse(ctx, input.warehouse);
    const lotCode = input.lotCode || null;
    if (input.quantity > 0) {
      ensureLot(ctx, product.id, lotCode, input.expirationDate);
      addStock(
        ctx,
        { productId: product.id, lotCode, warehouseId: warehouse.id, location: input.location ?? DEFAULT_LOCATION },
        input.quantity,
        input.inContainers,
      );
    } else {
      const wanted = round(-input.quantity);
      const rows = allocate(
        ctx,
        {
          productId: product.id,
          productCode: product.external_code,
          lotCode,
          warehouseId: warehouse.id,
          location: input.location,
        },
        wanted,
      );
      for (const row of rows) takeFromRow(ctx, row.stockId, row.quantity);
    }
    const movementTime = ctx.clock.now().toISOString();
    const webhook = product.origin === 'api';
    const result: Regularization = {
      productExternalCode: product.external_code,
      lotCode,
      warehouse: warehouse.code,
      quantity: input.quantity,
      movementTime,
      webhook,
    };
    if (!webhook) return { result, webhookIds: [] };
    const payload = stockRegularizationPayloadSchema.parse({
      productExternalCode: product.external_code,
      lotCode: product.with_lots ? lotCode : null,
      quantity: input.quantity,
      movementTime,
      warehouse: warehouse.external_code,
    });
    const id = queueWebhook(ctx, {
      tenantId: ctx.tenant.id,
      kind: 'stock-regularization',
      closingDocumentId: null,
      body: JSON.stringify(payload),
      cause: 'event',
    });
    return { result, webhookIds: id === null ? [] : [id] };
  })();
  if (outcome.webhookIds.length > 0) ctx.events.emit('queued');
  return outcome;
}
