import type { EmulatorContext, TenantContext } from '../context.js';
import { ControlError } from '../errors.js';

/** Every tenant starts with this warehouse (no external code, so regularization webhooks carry `warehouse: null`). */
export const DEFAULT_WAREHOUSE = 'MAIN';
/** Where received or regularized stock goes when no location is given. */
export const DEFAULT_LOCATION = 'STOCK';

export interface WarehouseRow {
  id: number;
  tenant_id: string;
  code: string;
  external_code: string | null;
  shipping_process: string | null;
}

export interface WarehouseView {
  code: string;
  externalCode: string | null;
  shippingProcess: string | null;
}

export const warehouseView = (row: WarehouseRow): WarehouseView => ({
  code: row.code,
  externalCode: row.external_code,
  shippingProcess: row.shipping_process,
});

export function findWarehouse(ctx: EmulatorContext, tenantId: string, code: string): WarehouseRow | undefined {
  return ctx.sql('SELECT * FROM warehouses WHERE tenant_id = ? AND code = ?').get(tenantId, code) as
    | WarehouseRow
    | undefined;
}

/**
 * The warehouse an API query names: by its code, else by its external code (what the stock
 * webhook carries as `warehouse`, so an integrator can pass that back).
 */
export function findWarehouseByAnyCode(ctx: EmulatorContext, tenantId: string, code: string): WarehouseRow | undefined {
  return (
    findWarehouse(ctx, tenantId, code) ??
    (ctx
      .sql('SELECT * FROM warehouses WHERE tenant_id = ? AND external_code = ? ORDER BY id LIMIT 1')
      .get(tenantId, code) as WarehouseRow | undefined)
  );
}

export function warehouseById(ctx: EmulatorContext, id: number): WarehouseRow {
  return ctx.sql('SELECT * FROM warehouses WHERE id = ?').get(id) as WarehouseRow;
}

/** The warehouse a control action names (the default one when it names none); 400 when unknown. */
export function resolveWarehouse(ctx: TenantContext, code: string | undefined | null): WarehouseRow {
  const row = findWarehouse(ctx, ctx.tenant.id, code ?? DEFAULT_WAREHOUSE);
  if (!row)
    throw new ControlError(
      400,
      'warehouse_not_found',
      `Warehouse "${code}" does not exist in tenant "${ctx.tenant.id}"`,
    );
  return row;
}

export function listWarehouses(ctx: TenantContext): WarehouseView[] {
  return (ctx.sql('SELECT * FROM warehouses WHERE tenant_id = ? ORDER BY id').all(ctx.tenant.id) as WarehouseRow[]).map(
    warehouseView,
  );
}

/** A new warehouse; `shippingProcess` names the shipping process that serves it (endpoint 7 filter). */
export function createWarehouse(
  ctx: TenantContext,
  input: { code: string; externalCode?: string | null; shippingProcess?: string | null },
): WarehouseView {
  const inserted = ctx
    .sql(
      'INSERT INTO warehouses (tenant_id, code, external_code, shipping_process, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    )
    .run(ctx.tenant.id, input.code, input.externalCode ?? null, input.shippingProcess ?? null, ctx.clock.nowMs());
  if (inserted.changes === 0)
    throw new ControlError(409, 'warehouse_exists', `Warehouse "${input.code}" already exists`);
  return warehouseView(findWarehouse(ctx, ctx.tenant.id, input.code)!);
}
