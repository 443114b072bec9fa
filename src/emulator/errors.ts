import type { BadRequestObject, ConflictObject, TokenError } from '../wms/index.js';

const PROBLEM_BASE = 'https://www.jhipster.tech/problem';
export const PROBLEM_TYPES = {
  message: `${PROBLEM_BASE}/problem-with-message`,
  validation: `${PROBLEM_BASE}/constraint-violation`,
  notFound: `${PROBLEM_BASE}/entity-not-found`,
} as const;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export type WmsErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500;

/**
 * An error answered by the emulated WMS API. 409 and 500 render as the spec's conflict object
 * (BadRequestAlertException), every other status as its bad-request object.
 */
export class WmsApiError extends Error {
  constructor(
    readonly status: WmsErrorStatus,
    readonly entityName: string,
    readonly errorKey: string,
    readonly title: string,
    readonly options: { type?: string; message?: string; headers?: Record<string, string> } = {},
  ) {
    super(title);
    this.name = 'WmsApiError';
  }
}

export const wmsError = {
  badRequest: (entityName: string, errorKey: string, title: string, message?: string) =>
    new WmsApiError(400, entityName, errorKey, title, message ? { message } : {}),
  validation: (entityName: string, details: string) =>
    new WmsApiError(400, entityName, 'validation', `Invalid ${entityName} data: ${details}`, {
      type: PROBLEM_TYPES.validation,
    }),
  notFound: (entityName: string, title: string) =>
    new WmsApiError(404, entityName, 'notfound', title, { type: PROBLEM_TYPES.notFound }),
  conflict: (entityName: string, errorKey: string, title: string) => new WmsApiError(409, entityName, errorKey, title),
  unauthorized: (description: string) =>
    new WmsApiError(401, 'authentication', 'unauthorized', description, {
      headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"` },
    }),
  forbidden: (description: string) =>
    new WmsApiError(403, 'authorization', 'forbidden', description, {
      headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", error_description="${description}"` },
    }),
  internal: () => new WmsApiError(500, 'server', 'internalServerError', 'Internal server error'),
};

export function badRequestObject(err: WmsApiError): BadRequestObject {
  return {
    entityName: err.entityName,
    errorKey: err.errorKey,
    type: err.options.type ?? PROBLEM_TYPES.message,
    title: err.title,
    status: String(err.status),
    message: err.options.message ?? `error.${err.errorKey}`,
    params: err.entityName,
  };
}

/** The conflict/500 object; `stackTrace` is always empty: no trace of ours leaves the process. */
export function conflictObject(err: WmsApiError, instance: string): ConflictObject {
  const message = err.options.message ?? `error.${err.errorKey}`;
  return {
    type: err.options.type ?? PROBLEM_TYPES.message,
    title: err.title,
    status: { reasonPhrase: REASONS[err.status] ?? 'Error', statusCode: err.status },
    detail: err.title,
    instance,
    parameters: { message, params: err.entityName },
    entityName: err.entityName,
    errorKey: err.errorKey,
    message,
    localizedMessage: err.title,
    cause: null,
    stackTrace: [],
    suppressed: [],
  };
}

export function wmsErrorBody(err: WmsApiError, path: string): BadRequestObject | ConflictObject {
  return err.status === 409 || err.status === 500 ? conflictObject(err, path) : badRequestObject(err);
}

/** An error of the two token endpoints, answered as `{error, error_description}`. */
export class TokenEndpointError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 413 | 500 | 503,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'TokenEndpointError';
  }

  body(): TokenError {
    return { error: this.error, error_description: this.description };
  }
}

/** An error of the emulator's own control API, answered as `{error, message}`. */
export class ControlError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 500,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}
