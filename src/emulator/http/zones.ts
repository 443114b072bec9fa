import { OAUTH_TOKEN_PATH, WMS_PATHS } from '../../wms/index.js';

/**
 * The emulator answers three families of routes, each with its own error body: the WMS API (the
 * spec's bad-request and conflict objects), the two token endpoints (`{error, error_description}`)
 * and its own control API (`{error, message}`).
 */
export type Zone = 'wms' | 'token' | 'control';

export const CONTROL_PREFIX = '/_emulator';

export function zoneOf(path: string): Zone {
  if (path === WMS_PATHS.authToken || path === OAUTH_TOKEN_PATH) return 'token';
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return 'control';
  return 'wms';
}

/** The entity a WMS path is about, for the bad-request object's `entityName`. */
export function entityOf(path: string): string {
  if (path.includes('/delivery-point')) return 'deliveryPoint';
  if (path.includes('/reception/')) return 'reception';
  if (path.includes('/expedition/')) return 'shippingOrder';
  if (path.includes('/storage-system/')) return 'storageSystem';
  if (path.includes('/document')) return 'document';
  if (path.includes('/product')) return 'product';
  return 'request';
}
