import { hkdfSync } from 'node:crypto';
import { sha256Hex } from './crypto.js';

/** One operator's admin token, as kept in memory: its SHA-256 only. */
export interface NamedToken {
  name: string;
  /** Lowercase hex SHA-256 of the token. */
  sha256: string;
}

export interface AdminTokens {
  tokens: NamedToken[];
  /**
   * Key material for console sessions, derived (HKDF) from the tokens given in clear; undefined
   * when every token is given as a hash (sessions then use a key of the process's own).
   */
  sessionSecret: string | undefined;
}

/** The operator `ADMIN_TOKEN` signs in as. */
export const SHARED_OPERATOR = 'admin';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const HASHED = /^sha256:([0-9a-fA-F]{64})$/;

/**
 * `ADMIN_TOKENS=name:token,name:sha256:<hex>,…`: each operator's own token, in clear (16
 * characters or more) or as its SHA-256, so that the setting at rest need not hold the secret.
 * Throws a one-line message naming the faulty entry (never its token).
 */
export function parseAdminTokens(raw: string | undefined, sharedToken: string | undefined): AdminTokens {
  const tokens: NamedToken[] = [];
  const clear: string[] = [];
  if (sharedToken) {
    tokens.push({ name: SHARED_OPERATOR, sha256: sha256Hex(sharedToken) });
    clear.push(sharedToken);
  }
  const entries = (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  entries.forEach((entry, i) => {
    const colon = entry.indexOf(':');
    const name = colon > 0 ? entry.slice(0, colon) : '';
    const secret = colon > 0 ? entry.slice(colon + 1) : '';
    if (!NAME.test(name))
      throw new Error(`entry ${i + 1}: expected name:token with a name of letters, digits, . _ @ - (64 at most)`);
    if (tokens.some((t) => t.name === name))
      throw new Error(`operator "${name}" appears twice${name === SHARED_OPERATOR ? ' (ADMIN_TOKEN is "admin")' : ''}`);
    const hashed = HASHED.exec(secret);
    if (hashed) {
      tokens.push({ name, sha256: hashed[1]!.toLowerCase() });
      return;
    }
    if (secret.length < 16) throw new Error(`operator "${name}": expected a token of at least 16 characters`);
    tokens.push({ name, sha256: sha256Hex(secret) });
    clear.push(secret);
  });
  const sha = new Set<string>();
  for (const t of tokens) {
    if (sha.has(t.sha256)) throw new Error(`operator "${t.name}" has the same token as another operator`);
    sha.add(t.sha256);
  }
  // ADMIN_TOKEN alone keeps the material it always had, so sessions survive an upgrade.
  const sessionSecret =
    clear.length === 0
      ? undefined
      : clear.length === 1 && sharedToken
        ? sharedToken
        : Buffer.from(hkdfSync('sha256', clear.join('\n'), '', 'wms-sync operators v1', 32)).toString('hex');
  return { tokens, sessionSecret };
}
