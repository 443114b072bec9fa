import * as client from 'openid-client';
import { isLoopback, type OidcConfig } from '../../lib/config.js';
import type { Logger } from '../../lib/logger.js';
import type { OidcTransaction } from './oidc-transaction.js';

/** The provider could not be discovered: the token form still works, and the next sign-in tries again. */
export class OidcUnavailable extends Error {}

/** The provider's answer was refused: `reason` is said to the operator (never a secret). */
export class OidcRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface OidcClient {
  /** The provider's own name for the button ("Sign in with …"). */
  name: string;
  /** Where the browser goes to sign in, and what the callback must find again. */
  start(redirectUri: string, next: string | undefined): Promise<{ url: URL; transaction: OidcTransaction }>;
  /** Exchanges the code of a callback (its full URL) for the operator's claims, checking state, nonce and PKCE. */
  finish(callbackUrl: URL, transaction: OidcTransaction): Promise<Record<string, unknown>>;
  /** Discovers the provider at start, so that a misconfiguration is logged early; never throws. */
  warm(): Promise<void>;
}

const TIMEOUT_SECONDS = 10;

/**
 * openid-client over the provider's discovery document, discovered once it answers: a failed
 * discovery is logged and tried again at the next sign-in, never fatal to the service. A client
 * with a secret authenticates with HTTP Basic (the method every provider must support, RFC 6749
 * 2.3.1); without one it is a public client, PKCE its only proof.
 */
export function oidcClient(config: OidcConfig, log: Logger): OidcClient {
  let discovered: client.Configuration | undefined;
  let pending: Promise<client.Configuration> | undefined;
  const issuer = new URL(config.issuer);

  const discover = (): Promise<client.Configuration> => {
    if (discovered) return Promise.resolve(discovered);
    pending ??= client
      .discovery(
        issuer,
        config.clientId,
        config.clientSecret ? { client_secret: config.clientSecret } : undefined,
        config.clientSecret ? client.ClientSecretBasic(config.clientSecret) : client.None(),
        {
          timeout: TIMEOUT_SECONDS,
          execute: issuer.protocol === 'http:' && isLoopback(issuer.hostname) ? [client.allowInsecureRequests] : [],
        },
      )
      .then(
        (c) => {
          discovered = c;
          log.info({ issuer: config.issuer }, 'OpenID provider discovered');
          return c;
        },
        (err: unknown) => {
          log.warn(
            { issuer: config.issuer, err: { message: (err as Error).message } },
            'OpenID provider discovery failed: console sign-in with a token still works; the next OpenID sign-in tries again',
          );
          throw new OidcUnavailable((err as Error).message);
        },
      )
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  return {
    name: config.name,
    async start(redirectUri, next) {
      const c = await discover();
      const transaction: OidcTransaction = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        next,
      };
      const url = client.buildAuthorizationUrl(c, {
        redirect_uri: redirectUri,
        scope: config.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(transaction.verifier),
        code_challenge_method: 'S256',
        state: transaction.state,
        nonce: transaction.nonce,
      });
      return { url, transaction };
    },
    async finish(callbackUrl, transaction) {
      const c = await discover();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(c, callbackUrl, {
          expectedState: transaction.state,
          expectedNonce: transaction.nonce,
          pkceCodeVerifier: transaction.verifier,
        });
      } catch (err) {
        throw new OidcRefused(refusalReason(err));
      }
      const claims: Record<string, unknown> = { ...tokens.claims() };
      // Many providers put the profile's claims only in the userinfo answer, not in the id token.
      const missing = claims.email === undefined || (claims.groups === undefined && config.allowedGroups.length > 0);
      if (missing && c.serverMetadata().userinfo_endpoint && tokens.access_token) {
        const info = await client.fetchUserInfo(c, tokens.access_token, String(claims.sub)).catch((err: unknown) => {
          throw new OidcRefused(`the provider's userinfo answer could not be read (${(err as Error).message})`);
        });
        for (const [k, v] of Object.entries(info)) if (claims[k] === undefined) claims[k] = v;
      }
      return claims;
    },
    async warm() {
      await discover().catch(() => undefined);
    },
  };
}

/** What went wrong, in the operator's words; the provider's own error code kept for the logs and support. */
function refusalReason(err: unknown): string {
  if (err instanceof client.AuthorizationResponseError)
    return `the provider answered ${err.error}${err.error_description ? `: ${err.error_description}` : ''}`;
  if (err instanceof client.ResponseBodyError)
    return `the provider refused the code (${err.error}${err.error_description ? `: ${err.error_description}` : ''}); a code serves once: sign in again`;
  // openid-client wraps oauth4webapi's check in "invalid response encountered": the cause says which.
  const cause = (err as Error).cause;
  const message = [(err as Error).message, cause instanceof Error ? cause.message : ''].join(' ');
  if (/"state"/.test(message)) return 'this answer does not belong to the sign-in this browser started (state)';
  if (/nonce/.test(message)) return 'the id token does not belong to the sign-in this browser started (nonce)';
  return `the provider's answer could not be verified (${cause instanceof Error ? cause.message : (err as Error).message})`;
}
