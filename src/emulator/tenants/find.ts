import { bool, type EmulatorContext, type Tenant, type TenantContext } from '../context.js';
import { ControlError } from '../errors.js';

interface TenantRow {
  id: string;
  api_with_lot: number;
  api_with_expiration_date: number;
}

export function toTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    settings: { API_WITH_LOT: bool(row.api_with_lot), API_WITH_EXPIRATION_DATE: bool(row.api_with_expiration_date) },
  };
}

export function findTenant(ctx: EmulatorContext, id: string): Tenant | undefined {
  const row = ctx.sql('SELECT id, api_with_lot, api_with_expiration_date FROM tenants WHERE id = ?').get(id) as
    | TenantRow
    | undefined;
  return row ? toTenant(row) : undefined;
}

export function listTenants(ctx: EmulatorContext): Tenant[] {
  const rows = ctx
    .sql('SELECT id, api_with_lot, api_with_expiration_date FROM tenants ORDER BY id')
    .all() as TenantRow[];
  return rows.map(toTenant);
}

/** The context of a tenant named in a control API path; 404 `tenant_not_found`. */
export function controlTenantContext(ctx: EmulatorContext, id: string): TenantContext {
  const tenant = findTenant(ctx, id);
  if (!tenant) throw new ControlError(404, 'tenant_not_found', `Tenant "${id}" does not exist`);
  return { ...ctx, tenant };
}
