import type { MiddlewareHandler } from 'hono';
import { parseJsonText, readJsonText } from '../../lib/http.js';

/**
 * An optional JSON body: none at all is fine; anything sent must be JSON (415 otherwise, 400 when
 * it does not parse), before zod-openapi's validator sees it.
 */
export function optionalJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.header('content-type') && (await c.req.text()) === '') return next();
    parseJsonText(await readJsonText(c));
    await next();
  };
}
