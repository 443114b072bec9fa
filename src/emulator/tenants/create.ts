import type { EmulatorContext, Tenant, TenantSettings } from '../context.js';
import { ControlError } from '../errors.js';
import { DEFAULT_WAREHOUSE } from '../warehouses/warehouses.js';

export function createTenant(ctx: EmulatorContext, input: { id: string; settings?: Partial<TenantSettings> }): Tenant {
  const settings: TenantSettings = {
    API_WITH_LOT: input.settings?.API_WITH_LOT ?? false,
    API_WITH_EXPIRATION_DATE: input.settings?.API_WITH_EXPIRATION_DATE ?? false,
  };
  ctx.db.transaction(() => {
    const inserted = ctx
      .sql(
        'INSERT INTO tenants (id, api_with_lot, api_with_expiration_date, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      )
      .run(input.id, settings.API_WITH_LOT ? 1 : 0, settings.API_WITH_EXPIRATION_DATE ? 1 : 0, ctx.clock.nowMs());
    if (inserted.changes === 0) throw new ControlError(409, 'tenant_exists', `Tenant "${input.id}" already exists`);
    // Every tenant has a warehouse to receive into; more can be added through the control API.
    ctx
      .sql('INSERT INTO warehouses (tenant_id, code, created_at) VALUES (?, ?, ?)')
      .run(input.id, DEFAULT_WAREHOUSE, ctx.clock.nowMs());
  })();
  return { id: input.id, settings };
}
