import type { EmulatorContext } from '../context.js';
import { ControlError } from '../errors.js';

/**
 * Tables holding a tenant's warehouse data, cleared by a tenant reset (children go by cascade).
 * The tenant, its settings, API/OAuth clients, warehouses and webhook settings stay, so
 * credentials and configuration keep working. Numbering (`sequences`) also stays: codes are
 * never reused.
 */
export const TENANT_DATA_TABLES = [
  'webhook_log',
  'closing_documents',
  'packings',
  'shipping_orders',
  'receptions',
  'stock',
  'documents',
  'delivery_points',
  'products',
] as const;

export function resetTenant(ctx: EmulatorContext, id: string): void {
  ctx.db.transaction(() => {
    const exists = ctx.sql('SELECT 1 FROM tenants WHERE id = ?').get(id);
    if (!exists) throw new ControlError(404, 'tenant_not_found', `Tenant "${id}" does not exist`);
    for (const table of TENANT_DATA_TABLES) ctx.db.prepare(`DELETE FROM ${table} WHERE tenant_id = ?`).run(id);
  })();
}

/** Every tenant and everything they own; the signing key stays so the emulator keeps its identity. */
export function resetAll(ctx: EmulatorContext): void {
  ctx.db.transaction(() => {
    ctx.db.prepare('DELETE FROM tenants').run();
  })();
}

export function deleteTenant(ctx: EmulatorContext, id: string): void {
  const removed = ctx.sql('DELETE FROM tenants WHERE id = ?').run(id);
  if (removed.changes === 0) throw new ControlError(404, 'tenant_not_found', `Tenant "${id}" does not exist`);
}
