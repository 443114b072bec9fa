import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** An account of the test provider: its claims, as a real provider would release them per scope. */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  groups?: string[];
}

export interface TestProvider {
  /** The issuer URL (OIDC_ISSUER). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client with its redirect URL (known once the service listens) and starts answering. */
  register(redirectUri: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (node-oidc-provider) on a loopback port: one static confidential client
 * (client_secret_basic, code flow, PKCE required), in-memory accounts (the login form's "login"
 * names the account; any password), its own login and consent pages. It listens at once and
 * answers 503 until `register`, as a provider that is down at the service's start would.
 * `host` 127.0.0.2 puts it on another site than the service on 127.0.0.1, as a real provider is.
 */
export async function startTestProvider(
  accounts: Record<string, TestAccount>,
  options: { host?: string } = {},
): Promise<TestProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503, { 'content-type': 'text/plain' }).end('the provider is starting');
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const clientId = 'wms-sync-console';
  const clientSecret = randomBytes(24).toString('hex');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test', alg: 'RS256', use: 'sig' };

  return {
    issuer,
    clientId,
    clientSecret,
    async register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: [randomBytes(16).toString('hex')] },
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['preferred_username'],
          groups: ['groups'],
        },
        pkce: { required: () => true },
        ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
        findAccount: (_ctx, id) => {
          const account = accounts[id];
          return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
        },
      });
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A user agent at the provider's own pages, over fetch with manual redirects and a cookie jar of
 * the provider's cookies: from the authorization URL through the login and consent forms to the
 * redirect back to the service, whose URL it returns.
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string> | undefined),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    init = {};
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider ${res.status} at ${url}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no form at ${url}`);
    url = new URL(action.replaceAll('&amp;', '&'), url).href;
    const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    init = {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  throw new Error('too many redirects at the provider');
}
