import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { EmulatorContext } from '../context.js';
import { ControlError } from '../errors.js';
import { findTenant } from '../tenants/find.js';

/*
 * Users of the identity provider, for option B's password flow (spec, Authentication: "the password
 * flow at the same token URL with scope openid"). A user belongs to a tenant; a password token is
 * issued to an OAuth2 client of the same tenant. Passwords may be chosen by people, so they are
 * stored as scrypt hashes (a slow KDF), unlike the 256-bit client secrets.
 */

const KEY_LENGTH = 32;
// A fixed hash compared against for an unknown username, so that case costs the same as a wrong password.
const DUMMY = { salt: '0'.repeat(32), hash: '0'.repeat(KEY_LENGTH * 2) };

function derive(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export interface CreatedUser {
  username: string;
  /** Shown once when generated: only its hash is stored. */
  password: string;
}

export async function createUser(
  ctx: EmulatorContext,
  tenantId: string,
  input: { username: string; password?: string | undefined },
): Promise<CreatedUser> {
  if (!findTenant(ctx, tenantId))
    throw new ControlError(404, 'tenant_not_found', `Tenant "${tenantId}" does not exist`);
  const password = input.password ?? randomBytes(18).toString('base64url');
  const salt = randomBytes(16).toString('hex');
  const hash = (await derive(password, salt)).toString('hex');
  const inserted = ctx
    .sql(
      'INSERT INTO oauth_users (tenant_id, username, password_salt, password_hash, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    )
    .run(tenantId, input.username, salt, hash, ctx.clock.nowMs());
  if (inserted.changes === 0)
    throw new ControlError(409, 'user_exists', `User "${input.username}" already exists in tenant "${tenantId}"`);
  return { username: input.username, password };
}

export function listUsers(ctx: EmulatorContext, tenantId: string): { username: string }[] {
  if (!findTenant(ctx, tenantId))
    throw new ControlError(404, 'tenant_not_found', `Tenant "${tenantId}" does not exist`);
  return ctx
    .sql('SELECT username FROM oauth_users WHERE tenant_id = ? ORDER BY created_at, username')
    .all(tenantId) as { username: string }[];
}

export function deleteUser(ctx: EmulatorContext, tenantId: string, username: string): void {
  const removed = ctx.sql('DELETE FROM oauth_users WHERE tenant_id = ? AND username = ?').run(tenantId, username);
  if (removed.changes === 0)
    throw new ControlError(404, 'user_not_found', `User "${username}" does not exist in tenant "${tenantId}"`);
}

/** True when the tenant has this user with this password; the same work whether or not the user exists. */
export async function userMatches(
  ctx: EmulatorContext,
  tenantId: string,
  username: string,
  password: string,
): Promise<boolean> {
  const row = ctx
    .sql('SELECT password_salt AS salt, password_hash AS hash FROM oauth_users WHERE tenant_id = ? AND username = ?')
    .get(tenantId, username) as { salt: string; hash: string } | undefined;
  const stored = row ?? DUMMY;
  const derived = await derive(password, stored.salt);
  return timingSafeEqual(derived, Buffer.from(stored.hash, 'hex')) && row !== undefined;
}
