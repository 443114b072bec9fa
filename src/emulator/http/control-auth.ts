import { getConnInfo } from '@hono/node-server/conninfo';
import type { MiddlewareHandler } from 'hono';
import { safeEqual } from '../../lib/crypto.js';
import { ControlError } from '../errors.js';
import type { EmulatorEnv } from './env.js';

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** The caller's address over HTTP; undefined in-process (`app.request()`), where there is none. */
function remoteAddress(c: Parameters<MiddlewareHandler<EmulatorEnv>>[0]): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * The control API is open on loopback. With an admin token configured, that token is required as
 * a Bearer from anywhere (checked in constant time); without one, other addresses are refused.
 */
export function controlAuth(adminToken: string | undefined): MiddlewareHandler<EmulatorEnv> {
  const expected = adminToken ? `Bearer ${adminToken}` : undefined;
  return async (c, next) => {
    if (expected) {
      if (!safeEqual(c.req.header('authorization') ?? '', expected)) {
        throw new ControlError(401, 'unauthorized', 'The control API requires the admin token as a Bearer');
      }
    } else {
      const address = remoteAddress(c);
      if (address !== undefined && !isLoopback(address)) {
        throw new ControlError(
          403,
          'forbidden',
          'The control API is open on loopback only; set EMULATOR_ADMIN_TOKEN to use it remotely',
        );
      }
    }
    await next();
  };
}

/**
 * The control routes' `security` in the OpenAPI document: the admin token as a Bearer when the
 * emulator has one, nothing on loopback when it has none (see controlAuth).
 */
export const CONTROL_SECURITY: Record<string, string[]>[] = [{ emulatorAdmin: [] }, {}];
