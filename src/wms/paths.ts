/** Every operation lives under this path of {base_url}. */
export const WMS_BASE_PATH = '/api/external/v1';

/** Option B token endpoint, under {auth_url}. */
export const OAUTH_TOKEN_PATH = '/oauth/token';

/** The 21 operations' paths, with `{name}` placeholders as in OpenAPI. */
export const WMS_PATHS = {
  product: `${WMS_BASE_PATH}/product`,
  productByExternalCode: `${WMS_BASE_PATH}/product/{externalCode}`,
  productUpdateObservations: `${WMS_BASE_PATH}/product/{externalCode}/update-observations`,
  productAllExternalCodes: `${WMS_BASE_PATH}/product-all-external-codes`,
  productStock: `${WMS_BASE_PATH}/product/stock`,
  document: `${WMS_BASE_PATH}/document`,
  documentByExternalCode: `${WMS_BASE_PATH}/document/{externalCode}`,
  documentCancel: `${WMS_BASE_PATH}/document/cancel`,
  deliveryPoint: `${WMS_BASE_PATH}/delivery-point`,
  deliveryPointByExternalCode: `${WMS_BASE_PATH}/delivery-point/{externalCode}`,
  receptionDifferences: `${WMS_BASE_PATH}/reception/{receptionCode}/differences`,
  packingByExternalCode: `${WMS_BASE_PATH}/expedition/getPackingByExternalCode`,
  packingByDocumentCode: `${WMS_BASE_PATH}/expedition/getPackingByDocumentCode`,
  storageSystemDispatched: `${WMS_BASE_PATH}/storage-system/dispatched`,
  authToken: `${WMS_BASE_PATH}/auth/token`,
} as const;

export type WmsPathName = keyof typeof WMS_PATHS;

/**
 * `.` and `..` cannot be sent as a path segment: every URL parser removes dot-segments (RFC 3986
 * §5.2.4), and the WHATWG URL parser that fetch uses treats `%2E` and `%2e` as dots too, so
 * `GET /product/..` would reach `/api/external/v1/` instead. The WMS (Spring) refuses encoded dots
 * in paths anyway. wms-sync refuses such codes where they enter (the ERP API) and never builds
 * such a URL.
 */
export const DOT_SEGMENT_MESSAGE =
  'must not be "." or "..": the WMS addresses records by code in URL paths, where these are dot-segments';

export function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/** Thrown by `wmsPath` for a parameter that cannot be a path segment (see `isDotSegment`). */
export class UnaddressablePathError extends Error {
  constructor(
    readonly parameter: string,
    readonly value: string,
  ) {
    super(`${parameter} "${value}" ${DOT_SEGMENT_MESSAGE}`);
    this.name = 'UnaddressablePathError';
  }
}

/** A concrete path: each `{name}` replaced by its URI-encoded value. */
export function wmsPath(name: WmsPathName, params: Record<string, string> = {}): string {
  return WMS_PATHS[name].replace(/\{(\w+)\}/g, (_m, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`wmsPath(${name}): missing parameter "${key}"`);
    if (isDotSegment(value)) throw new UnaddressablePathError(key, value);
    return encodeURIComponent(value);
  });
}
