import type { MiddlewareHandler } from 'hono';

/** Nothing to load, nothing to frame: what a JSON or text answer needs. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The API reference page (Redoc): its own script, its styles (Redoc sets them inline at run time),
 * its spec from this origin, images and fonts from here only.
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/**
 * Security headers on every answer, errors included, unless a room set its own (the console's
 * stricter policy): a Content-Security-Policy, `X-Frame-Options: DENY`, `Referrer-Policy`,
 * `nosniff`, and HSTS when PUBLIC_URL is https (browsers then never try plain http for a year).
 */
export function securityHeaders(options: {
  publicUrl: string | undefined;
  htmlPaths: readonly string[];
}): MiddlewareHandler {
  const hsts = options.publicUrl?.startsWith('https:') ?? false;
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    const setDefault = (name: string, value: string) => {
      if (!headers.has(name)) headers.set(name, value);
    };
    try {
      setDefault('content-security-policy', options.htmlPaths.includes(c.req.path) ? DOCS_CSP : API_CSP);
      setDefault('x-frame-options', 'DENY');
      setDefault('referrer-policy', 'no-referrer');
      setDefault('x-content-type-options', 'nosniff');
      if (hsts) setDefault('strict-transport-security', 'max-age=31536000');
    } catch {
      // A response with immutable headers (a static file handed on as is) is sent as it is.
    }
  };
}
