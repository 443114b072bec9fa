import type { Context } from 'hono';

/**
 * Whether the browser reached this request over https: PUBLIC_URL says so, or the request came in
 * on https, or, behind `trustProxyHops` reverse proxies, the `X-Forwarded-Proto` the nearest of
 * them set says https. With no trusted proxy the header is the client's own and is ignored.
 */
export function servedOverHttps(c: Context, publicUrl: string | undefined, trustProxyHops: number): boolean {
  if (publicUrl?.startsWith('https:')) return true;
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (trustProxyHops <= 0) return false;
  const proto = (c.req.header('x-forwarded-proto') ?? '').split(',').pop()?.trim().toLowerCase();
  return proto === 'https';
}
