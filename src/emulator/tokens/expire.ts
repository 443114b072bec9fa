import type { EmulatorContext } from '../context.js';
import { ControlError } from '../errors.js';

/**
 * Makes every token issued so far to the tenant's clients answer 401 "The access token expired",
 * as if an hour had passed, so a client's refresh-and-retry on 401 can be tested over HTTP.
 * Tokens issued afterwards work.
 */
export function expireTenantTokens(ctx: EmulatorContext, tenantId: string): void {
  const updated = ctx.sql('UPDATE tenants SET token_epoch = token_epoch + 1 WHERE id = ?').run(tenantId);
  if (updated.changes === 0) throw new ControlError(404, 'tenant_not_found', `Tenant "${tenantId}" does not exist`);
}
