import type { EmulatorContext } from '../context.js';
import { ControlError } from '../errors.js';
import { type ClientKind, type ClientRecord, findTenantClient } from './find.js';
import { hashSecret, newSecret } from './secrets.js';

/*
 * The spec's client management actions. Tokens carry the client's generation; bumping it (new
 * secret) or deleting the row makes every token already issued fail at once. Disabling
 * suspends: tokens fail while disabled and work again, if unexpired, once re-enabled.
 */

function mustFind(ctx: EmulatorContext, tenantId: string, kind: ClientKind, clientId: string): ClientRecord {
  const client = findTenantClient(ctx, tenantId, kind, clientId);
  if (!client)
    throw new ControlError(404, 'client_not_found', `Client "${clientId}" does not exist in tenant "${tenantId}"`);
  return client;
}

export function setClientEnabled(
  ctx: EmulatorContext,
  tenantId: string,
  kind: ClientKind,
  clientId: string,
  enabled: boolean,
): void {
  mustFind(ctx, tenantId, kind, clientId);
  ctx.sql('UPDATE clients SET enabled = ? WHERE client_id = ?').run(enabled ? 1 : 0, clientId);
}

/** A new secret; the old one and every token issued with it stop working immediately. */
export function regenerateSecret(ctx: EmulatorContext, tenantId: string, kind: ClientKind, clientId: string): string {
  mustFind(ctx, tenantId, kind, clientId);
  const secret = newSecret();
  const { salt, hash } = hashSecret(secret);
  ctx
    .sql('UPDATE clients SET secret_salt = ?, secret_hash = ?, generation = generation + 1 WHERE client_id = ?')
    .run(salt, hash, clientId);
  return secret;
}

export function deleteClient(ctx: EmulatorContext, tenantId: string, kind: ClientKind, clientId: string): void {
  mustFind(ctx, tenantId, kind, clientId);
  ctx.sql('DELETE FROM clients WHERE client_id = ?').run(clientId);
}
