import type { RouterRoute } from 'hono/types';

const patterns = new Map<string, RegExp>();

/** A Hono route path (`/a/:id/b`, `/a/*`) as a RegExp over a request path. */
function patternOf(path: string): RegExp {
  let re = patterns.get(path);
  if (!re) {
    const body = path
      .split('/')
      .map((part) =>
        part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    re = new RegExp(`^${body}/?$`);
    patterns.set(path, re);
  }
  return re;
}

/**
 * The methods some handler of `routes` answers on `path` (HEAD wherever GET is), leaving out
 * middleware and catch-alls (`ALL`): what a 405's `Allow` header lists. Empty when no route has
 * this path at all (a 404).
 */
export function allowedMethods(routes: readonly RouterRoute[], path: string): string[] {
  const methods = new Set<string>();
  for (const r of routes) {
    if (r.method === 'ALL' || r.path.endsWith('*')) continue;
    if (patternOf(r.path).test(path)) methods.add(r.method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
