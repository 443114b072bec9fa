import { randomBytes } from 'node:crypto';
import { basicAuthorization } from '../lib/basic-auth.js';
import type { ConnectionRegistry } from '../lib/connection-registry.js';
import type { ConnectionConfig } from '../lib/connections.js';
import { secretMatcher } from '../lib/crypto.js';
import { type AppError, unauthorized } from '../lib/errors.js';

export const WEBHOOK_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="wms-sync webhooks", charset="UTF-8"' };

/** Every connection's header is compared with this many candidates (current, previous or filler). */
const CANDIDATES = 2;

/** A credential nobody knows: what an unknown connection's webhook and a one-credential connection's spare slot are compared with. */
const filler = () => basicAuthorization('unknown', randomBytes(32).toString('hex'));

/**
 * HTTP Basic for the webhook routes. The expected `Authorization` values are built once per
 * connection and the whole header is compared against each in constant time: no per-request
 * decoding, no early exit, and both credentials of a rotation are accepted. An unknown connection
 * is checked the same way against credentials nobody knows, and fails exactly like a wrong
 * password (same 401, same headers, same work), so connection names cannot be enumerated.
 */
export function webhookAuthenticator(connections: ConnectionRegistry) {
  const expected = new Map<string, { values: string[]; match: (header: string) => number }>();
  const entry = (values: string[]) => ({ values, match: secretMatcher(values) });
  for (const c of connections.all()) {
    const accepted = c.webhookCredentials.map(({ username, password }) => basicAuthorization(username, password));
    while (accepted.length < CANDIDATES) accepted.push(filler());
    expected.set(c.name, entry(accepted));
  }
  const unknown = entry(Array.from({ length: CANDIDATES }, filler));
  return {
    /** The candidates a webhook to this connection name is compared with (exposed for tests of the equal work). */
    candidatesFor: (connectionName: string): readonly string[] => (expected.get(connectionName) ?? unknown).values,

    /** The connection the webhook is for, or the 401 to answer (unknown connection or wrong credentials alike). */
    authenticate(
      connectionName: string,
      header: string | undefined,
    ): { connection: ConnectionConfig } | { refused: AppError } {
      const accepted = expected.get(connectionName) ?? unknown;
      const match = accepted.match(header ? normalizeScheme(header) : '') >= 0;
      const connection = connections.get(connectionName);
      if (match && connection) return { connection };
      return {
        refused: unauthorized(header ? 'Invalid Basic credentials' : 'Missing Basic credentials', WEBHOOK_CHALLENGE),
      };
    },
  };
}

/** The auth scheme is case-insensitive (RFC 9110): `basic xyz` is `Basic xyz`. */
function normalizeScheme(header: string): string {
  if (header.startsWith('Basic ')) return header;
  const match = /^basic +(.*)$/i.exec(header.trim());
  return match ? `Basic ${match[1]}` : header;
}
