import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { badRequestObject, conflictObject, WmsApiError } from '../errors.js';
import type { EmulatorEnv } from '../http/env.js';
import { entityOf, zoneOf } from '../http/zones.js';
import type { FaultRegistry } from './registry.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An injected status in the zone's own error shape, so clients parse it as they would a real one. */
function injected(path: string, status: number): { body: unknown; headers: Record<string, string> } {
  const description = `Injected fault: HTTP ${status}`;
  if (zoneOf(path) === 'token') {
    const error = status === 401 ? 'invalid_client' : status >= 500 ? 'server_error' : 'invalid_request';
    return { body: { error, error_description: description }, headers: { 'Cache-Control': 'no-store' } };
  }
  const headers: Record<string, string> =
    status === 401 ? { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"` } : {};
  // Any 4xx/5xx, rendered as the emulator renders its own: 409 and 5xx the conflict object, others the bad-request object.
  if (status === 409 || status >= 500) {
    const body = conflictObject(new WmsApiError(500, entityOf(path), 'faultinjected', description), path);
    return { body: { ...body, status: { reasonPhrase: 'Injected fault', statusCode: status } }, headers };
  }
  return {
    body: {
      ...badRequestObject(new WmsApiError(400, entityOf(path), 'faultinjected', description)),
      status: String(status),
    },
    headers,
  };
}

/**
 * Fault injection on the emulated WMS (API and token endpoints, never the control API, so faults
 * can always be cleared): the first matching fault adds its latency, then drops the connection
 * without an answer, answers its status, or lets the request through.
 */
export function faultInjection(faults: FaultRegistry): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    if (zoneOf(c.req.path) === 'control') return next();
    const fault = faults.take('api', c.req.method, c.req.path);
    if (!fault) return next();
    if (fault.latencyMs) await delay(fault.latencyMs);
    if (fault.drop) {
      const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
      // Over HTTP the socket goes without a byte written (what is answered after is discarded);
      // in-process there is none, so the caller gets a network-error Response (status 0).
      if (!incoming) return Response.error();
      incoming.socket.destroy();
      return c.body(null, 500);
    }
    if (fault.status !== undefined) {
      const { body, headers } = injected(c.req.path, fault.status);
      return c.json(body, fault.status as ContentfulStatusCode, headers);
    }
    return next();
  };
}
