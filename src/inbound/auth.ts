import { basicAuthorization } from '../lib/basic-auth.js';
import type { ConnectionRegistry } from '../lib/connection-registry.js';
import type { ConnectionConfig } from '../lib/connections.js';
import { safeEqualAny } from '../lib/crypto.js';
import { notFound, unauthorized } from '../lib/errors.js';

export const WEBHOOK_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="wms-sync webhooks", charset="UTF-8"' };

/**
 * HTTP Basic for the webhook routes. The expected `Authorization` values are built once per
 * connection and the whole header is compared against each in constant time: no per-request
 * decoding, no early exit, and both credentials of a rotation are accepted.
 */
export function webhookAuthenticator(connections: ConnectionRegistry, onUnauthorized?: (connection: string) => void) {
  const expected = new Map<string, string[]>();
  for (const c of connections.all()) {
    expected.set(
      c.name,
      c.webhookCredentials.map(({ username, password }) => basicAuthorization(username, password)),
    );
  }
  return {
    /** The connection the delivery is for; throws 404 for an unknown one, 401 for wrong credentials. */
    authenticate(connectionName: string, header: string | undefined): ConnectionConfig {
      const connection = connections.get(connectionName);
      const accepted = expected.get(connectionName);
      if (!connection || !accepted) throw notFound(`No connection named "${connectionName}"`);
      if (header && safeEqualAny(normalizeScheme(header), accepted)) return connection;
      onUnauthorized?.(connectionName);
      throw unauthorized(header ? 'Invalid Basic credentials' : 'Missing Basic credentials', WEBHOOK_CHALLENGE);
    },
  };
}

/** The auth scheme is case-insensitive (RFC 9110): `basic xyz` is `Basic xyz`. */
function normalizeScheme(header: string): string {
  if (header.startsWith('Basic ')) return header;
  const match = /^basic +(.*)$/i.exec(header.trim());
  return match ? `Basic ${match[1]}` : header;
}
