import type { Context, Env, ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { requestId as honoRequestId } from 'hono/request-id';
import type { AuthFailures } from './auth-failures.js';
import { AppError, type ErrorCode, errorBody, errorMessage, payloadTooLarge, unsupportedMediaType } from './errors.js';
import type { Logger } from './logger.js';

/** Variables every request carries: its id and a logger that stamps that id on each line. */
export interface RequestVars {
  requestId: string;
  log: Logger;
  /** Set by the app: what authenticating routes report failures to (see auth-failures.ts). */
  authFailures?: AuthFailures;
  /** The operator an admin request authenticated as (ADMIN_TOKEN is "admin"), for the audit trail. */
  operator?: string;
}
export interface AppEnv extends Env {
  Variables: RequestVars;
}

/** Request id (from `X-Request-Id` when the caller sends a sane one), child logger, access log. */
export function requestContext(logger: Logger): MiddlewareHandler<AppEnv> {
  const assignId = honoRequestId({ limitLength: 128 });
  return async (c, next) => {
    await assignId(c, async () => {
      const log = logger.child({ reqId: c.get('requestId') });
      c.set('log', log);
      const started = performance.now();
      await next();
      const ms = Math.round((performance.now() - started) * 100) / 100;
      const line = { method: c.req.method, path: c.req.path, status: c.res.status, ms };
      // The route may have bound more to it (the inbound event a webhook stored).
      const final = c.get('log') ?? log;
      if (c.res.status >= 500) final.error(line, 'request failed');
      else final.debug(line, 'request');
    });
  };
}

export function bodyLimit(
  maxBytes: number,
  tooLarge: () => Error = () => payloadTooLarge(maxBytes),
): MiddlewareHandler {
  const streaming = honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge();
    },
  });
  return (c, next) => {
    // With a Content-Length the HTTP parser delivers exactly that many bytes, so the header alone
    // decides. Hono's middleware would first turn the body into a web stream (about 80 µs a
    // request under load, three times a whole JSON round trip); it only reads chunked bodies now.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined && /^\d+$/.test(length)) {
      if (Number(length) > maxBytes) throw tooLarge();
      return next();
    }
    return streaming(c, next);
  };
}

// Typed over any Env so apps whose Variables extend AppEnv's (e.g. ErpEnv) can use it too.
export const onError: ErrorHandler = (err, ctx) => {
  const c = ctx as unknown as Context<AppEnv>;
  const requestId = c.get('requestId');
  if (err instanceof AppError) {
    return c.json(errorBody(err, requestId), err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const code: ErrorCode = status === 413 ? 'payload_too_large' : status === 401 ? 'unauthorized' : 'http_error';
    return c.json(errorBody(new AppError(status, code, err.message || 'Request failed'), requestId), status);
  }
  (c.get('log') ?? console).error({ err }, 'unhandled error');
  return c.json(errorBody(new AppError(500, 'internal_error', 'Internal server error'), requestId), 500);
};

export const onNotFound: NotFoundHandler = (c) =>
  c.json(
    errorBody(
      new AppError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}`),
      (c as unknown as Context<AppEnv>).get('requestId'),
    ),
    404,
  );

export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const mediaType = header.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** Reads the raw body of a JSON request: 415 for another content type, the text otherwise. */
export async function readJsonText(c: Context): Promise<string> {
  if (!isJsonContentType(c.req.header('content-type'))) throw unsupportedMediaType('application/json');
  return c.req.text();
}

export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError(400, 'malformed_json', `Body is not valid JSON: ${errorMessage(err)}`);
  }
}
