import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Tracing } from './tracing.js';

/**
 * A server span per request, continuing the caller's trace when it sends a W3C `traceparent`
 * (an ERP that traces its calls sees them go on through us). Named by method and route pattern.
 * Mounted only when tracing is on.
 */
export function traceRequests(tracing: Tracing): MiddlewareHandler {
  return (c, next) =>
    tracing.span(
      c.req.method,
      {
        kind: 'server',
        parent: c.req.header('traceparent'),
        attributes: { 'http.request.method': c.req.method, 'url.path': c.req.path },
      },
      async (span) => {
        await next();
        const route = routePath(c);
        span.rename(`${c.req.method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': c.res.status });
        if (c.res.status >= 500) span.fail(new Error(`answered ${c.res.status}`));
      },
    );
}
