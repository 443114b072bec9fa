import type { MiddlewareHandler } from 'hono';
import { parseJsonText, readJsonText } from '../../lib/http.js';

/**
 * Runs before zod-openapi's validator so that a wrong content type is a 415 and broken JSON a 400
 * with the service's own error codes (unsupported_media_type, malformed_json).
 */
export function jsonBody(options: { optional?: boolean } = {}): MiddlewareHandler {
  return async (c, next) => {
    if (options.optional && !c.req.header('content-type') && (await c.req.text()) === '') return next();
    parseJsonText(await readJsonText(c));
    await next();
  };
}
