import type { MiddlewareHandler } from 'hono';
import type { ClientKind } from '../clients/find.js';
import { wmsError } from '../errors.js';
import { verifyAccessToken } from '../tokens/verify.js';
import type { EmulatorEnv, EmulatorServices } from './env.js';

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)$/i;

/**
 * Bearer authentication for every WMS API operation (spec: "401: missing, expired or invalid
 * token. 403: valid token with insufficient permissions"). Tokens are read from the
 * Authorization header only, never from the URL. `kinds` lists the credential types an operation
 * accepts; endpoint 20 accepts only OAuth2 (option B) tokens.
 */
export function bearerAuth(
  services: EmulatorServices,
  kinds: readonly ClientKind[] = ['api', 'oauth'],
): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    if (!match) throw wmsError.unauthorized('A bearer access token is required');
    const principal = await verifyAccessToken(services.ctx, services.tokens.key, match[1]!, {
      apiClientTokensDisabled: services.tokens.apiClientTokensDisabled,
    });
    if (!kinds.includes(principal.kind)) {
      throw wmsError.forbidden(
        `This operation does not accept ${principal.kind === 'api' ? 'API client' : 'OAuth2'} tokens`,
      );
    }
    c.set('principal', principal);
    await next();
  };
}
