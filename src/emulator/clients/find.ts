import { bool, type EmulatorContext, type Tenant } from '../context.js';
import { toTenant } from '../tenants/find.js';

export type ClientKind = 'api' | 'oauth';

export interface ClientRecord {
  clientId: string;
  tenant: Tenant;
  kind: ClientKind;
  name: string | null;
  audience: string | null;
  secretSalt: string;
  secretHash: string;
  enabled: boolean;
  generation: number;
  /** The tenant's token epoch: tokens issued under an earlier one count as expired. */
  tokenEpoch: number;
}

interface ClientRow {
  client_id: string;
  tenant_id: string;
  kind: ClientKind;
  name: string | null;
  audience: string | null;
  secret_salt: string;
  secret_hash: string;
  enabled: number;
  generation: number;
  api_with_lot: number;
  api_with_expiration_date: number;
  token_epoch: number;
}

const SELECT = `SELECT c.*, t.api_with_lot, t.api_with_expiration_date, t.token_epoch
  FROM clients c JOIN tenants t ON t.id = c.tenant_id`;

function toClient(row: ClientRow): ClientRecord {
  return {
    clientId: row.client_id,
    tenant: toTenant({
      id: row.tenant_id,
      api_with_lot: row.api_with_lot,
      api_with_expiration_date: row.api_with_expiration_date,
    }),
    kind: row.kind,
    name: row.name,
    audience: row.audience,
    secretSalt: row.secret_salt,
    secretHash: row.secret_hash,
    enabled: bool(row.enabled),
    generation: row.generation,
    tokenEpoch: row.token_epoch,
  };
}

export function findClient(ctx: EmulatorContext, clientId: string): ClientRecord | undefined {
  const row = ctx.sql(`${SELECT} WHERE c.client_id = ?`).get(clientId) as ClientRow | undefined;
  return row ? toClient(row) : undefined;
}

export function findTenantClient(
  ctx: EmulatorContext,
  tenantId: string,
  kind: ClientKind,
  clientId: string,
): ClientRecord | undefined {
  const client = findClient(ctx, clientId);
  return client && client.tenant.id === tenantId && client.kind === kind ? client : undefined;
}

/** What the control API shows of a client: never the secret nor its hash. */
export interface ClientView {
  client_id: string;
  kind: ClientKind;
  name?: string;
  audience?: string;
  enabled: boolean;
}

export function clientView(client: ClientRecord): ClientView {
  return {
    client_id: client.clientId,
    kind: client.kind,
    ...(client.name !== null ? { name: client.name } : {}),
    ...(client.audience !== null ? { audience: client.audience } : {}),
    enabled: client.enabled,
  };
}

export function listClients(ctx: EmulatorContext, tenantId: string, kind: ClientKind): ClientView[] {
  const rows = ctx
    .sql(`${SELECT} WHERE c.tenant_id = ? AND c.kind = ? ORDER BY c.created_at, c.client_id`)
    .all(tenantId, kind) as ClientRow[];
  return rows.map((row) => clientView(toClient(row)));
}
