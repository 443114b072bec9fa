import type { MiddlewareHandler } from 'hono';
import { authRefusal } from './auth-failures.js';
import type { ConnectionRegistry } from './connection-registry.js';
import type { ConnectionConfig } from './connections.js';
import { unauthorized } from './errors.js';
import type { AppEnv, RequestVars } from './http.js';

export interface ErpEnv extends AppEnv {
  Variables: RequestVars & { connection: ConnectionConfig };
}

/** The OpenAPI security of every ERP route. The `erpBearer` scheme itself is registered once, in app.ts. */
export const ERP_SECURITY = [{ erpBearer: [] }];

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="wms-sync ERP API"' };

/**
 * ERP API authentication: `Authorization: Bearer <ERP_API_TOKEN>`. The token names the
 * connection, so no request can reach another connection's data by changing a path or a field.
 */
export function erpAuth(connections: ConnectionRegistry): MiddlewareHandler<ErpEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw authRefusal(c, 'erp', 'bearer', unauthorized('Missing bearer token', CHALLENGE));
    const connection = connections.byErpToken(match[1]!);
    if (!connection) {
      throw authRefusal(
        c,
        'erp',
        'bearer',
        unauthorized('Invalid bearer token', {
          'WWW-Authenticate': `${CHALLENGE['WWW-Authenticate']}, error="invalid_token"`,
        }),
      );
    }
    c.set('connection', connection);
    await next();
  };
}
