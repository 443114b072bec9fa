import type { EmulatorContext } from '../context.js';
import { ControlError } from '../errors.js';
import { findTenant } from '../tenants/find.js';
import type { ClientKind } from './find.js';
import { hashSecret, newClientId, newSecret } from './secrets.js';

export interface CreatedClient {
  client_id: string;
  /** Shown once: only its salted hash is stored. */
  client_secret: string;
}

interface CreateInput {
  kind: ClientKind;
  name?: string;
  audience?: string;
  /** Fixed credentials (the demo seed); otherwise both are generated. */
  clientId?: string;
  clientSecret?: string;
}

export function createClient(ctx: EmulatorContext, tenantId: string, input: CreateInput): CreatedClient {
  if (!findTenant(ctx, tenantId))
    throw new ControlError(404, 'tenant_not_found', `Tenant "${tenantId}" does not exist`);
  const clientId = input.clientId ?? newClientId(input.kind === 'api' ? 'ac' : 'oc');
  const secret = input.clientSecret ?? newSecret();
  const { salt, hash } = hashSecret(secret);
  const inserted = ctx
    .sql(
      `INSERT INTO clients (client_id, tenant_id, kind, name, audience, secret_salt, secret_hash, enabled, generation, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1, 1, ?) ON CONFLICT (client_id) DO NOTHING`,
    )
    .run(clientId, tenantId, input.kind, input.name ?? null, input.audience ?? null, salt, hash, ctx.clock.nowMs());
  if (inserted.changes === 0) throw new ControlError(409, 'client_exists', `Client "${clientId}" already exists`);
  return { client_id: clientId, client_secret: secret };
}
