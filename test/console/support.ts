import type { TestService } from '../support/service.js';

export const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
export const ORIGIN = 'http://localhost';

/** A signed-in operator in app.request() tests: the session cookie and its CSRF token. */
export interface Operator {
  cookie: string;
  csrf: string;
}

export function sessionCookie(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('wms_console_session='));
  return set?.split(';')[0];
}

export async function signInAs(svc: TestService, token = ADMIN_TOKEN): Promise<Operator> {
  const res = await svc.app.request('/console/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    body: new URLSearchParams({ token }),
  });
  const cookie = sessionCookie(res);
  if (res.status !== 303 || !cookie) throw new Error(`sign-in: ${res.status}`);
  const page = await svc.app.request('/console/connections/acme/overview', { headers: { cookie } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrf) throw new Error('no CSRF token on the page');
  return { cookie, csrf };
}

export function get(svc: TestService, path: string, op?: Operator, headers: Record<string, string> = {}) {
  return svc.app.request(path, { headers: { ...(op ? { cookie: op.cookie } : {}), ...headers } });
}

/** A form POST as the console's own pages send it (same origin, the session's token). */
export function post(
  svc: TestService,
  path: string,
  op: Operator | undefined,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  return svc.app.request(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: ORIGIN,
      ...(op ? { cookie: op.cookie } : {}),
      ...headers,
    },
    body: new URLSearchParams({ ...(op ? { _csrf: op.csrf } : {}), ...fields }),
  });
}
