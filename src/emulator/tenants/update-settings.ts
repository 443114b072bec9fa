import type { EmulatorContext, Tenant, TenantSettings } from '../context.js';
import { ControlError } from '../errors.js';
import { findTenant } from './find.js';

/** The tenant's application settings; a setting left out keeps its value. Applies to later writes. */
export function updateTenantSettings(ctx: EmulatorContext, id: string, input: Partial<TenantSettings>): Tenant {
  const current = findTenant(ctx, id);
  if (!current) throw new ControlError(404, 'tenant_not_found', `Tenant "${id}" does not exist`);
  const settings = { ...current.settings, ...input };
  ctx
    .sql('UPDATE tenants SET api_with_lot = ?, api_with_expiration_date = ? WHERE id = ?')
    .run(settings.API_WITH_LOT ? 1 : 0, settings.API_WITH_EXPIRATION_DATE ? 1 : 0, id);
  return { id, settings };
}
