import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { issuesMessage } from '../../lib/zod-issues.js';
import { ControlError, TokenEndpointError, WmsApiError, wmsError, wmsErrorBody } from '../errors.js';
import type { EmulatorEnv } from './env.js';
import { entityOf, type Zone, zoneOf } from './zones.js';

/** Malformed JSON, a wrong content type or an oversized body, in the zone's own error shape. */
function requestProblem(zone: Zone, path: string, status: 400 | 413, message: string): Error {
  if (zone === 'token') return new TokenEndpointError(status, 'invalid_request', message);
  if (zone === 'control')
    return new ControlError(status, status === 413 ? 'payload_too_large' : 'invalid_request', message);
  const entity = entityOf(path);
  return status === 413
    ? new WmsApiError(413, entity, 'payloadtoolarge', message)
    : wmsError.badRequest(entity, 'invalidrequest', message);
}

function fromHttpException(err: HTTPException, path: string): Error {
  const zone = zoneOf(path);
  if (err.status === 413) return requestProblem(zone, path, 413, 'Request body too large');
  if (err.status === 415) {
    const expected =
      zone === 'token' && path.endsWith('/auth/token') ? 'application/x-www-form-urlencoded' : 'application/json';
    return requestProblem(zone, path, 400, `Unsupported content type: expected ${expected}`);
  }
  return requestProblem(zone, path, 400, err.message || 'Bad request');
}

function render(err: Error, c: Context<EmulatorEnv>): Response {
  if (err instanceof WmsApiError) return c.json(wmsErrorBody(err, c.req.path), err.status, err.options.headers);
  if (err instanceof TokenEndpointError) return c.json(err.body(), err.status, { 'Cache-Control': 'no-store' });
  if (err instanceof ControlError) return c.json({ error: err.code, message: err.message }, err.status);
  throw err;
}

/** Every error leaves as the spec's body for its zone; anything unexpected is logged, never shown. */
export const onEmulatorError: ErrorHandler<EmulatorEnv> = (err, c) => {
  const known = err instanceof HTTPException ? fromHttpException(err, c.req.path) : err;
  if (known instanceof WmsApiError || known instanceof TokenEndpointError || known instanceof ControlError)
    return render(known, c);
  (c.get('log') ?? console).error({ err }, 'emulator: unhandled error');
  const zone = zoneOf(c.req.path);
  if (zone === 'token') return render(new TokenEndpointError(500, 'server_error', 'Internal server error'), c);
  if (zone === 'control') return render(new ControlError(500, 'internal_error', 'Internal server error'), c);
  return render(wmsError.internal(), c);
};

export const onEmulatorNotFound: NotFoundHandler<EmulatorEnv> = (c) => {
  const message = `No endpoint ${c.req.method} ${c.req.path}`;
  const zone = zoneOf(c.req.path);
  if (zone === 'control') return render(new ControlError(404, 'not_found', message), c);
  if (zone === 'token') return render(new TokenEndpointError(400, 'invalid_request', message), c);
  return render(wmsError.notFound('request', message), c);
};

/** Validation failures of any route (body, query, path), thrown so `onEmulatorError` renders them. */
export function validationHook(
  result: { success: boolean; error?: ZodError; target: string },
  c: Context<EmulatorEnv>,
): void {
  if (result.success || !result.error) return;
  const path = c.req.path;
  const message = issuesMessage(result.error);
  switch (zoneOf(path)) {
    case 'token':
      throw new TokenEndpointError(401, 'invalid_client', `client_id and client_secret are required (${message})`);
    case 'control':
      throw new ControlError(400, 'invalid_request', message);
    default:
      throw wmsError.validation(entityOf(path), message);
  }
}
