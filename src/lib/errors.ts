import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * Every `error` code of the service's error body, with what it means: the closed list an ERP or an
 * operator's script can match on. `/openapi.json` enumerates it (lib/openapi-errors.ts). The
 * emulator speaks the WMS's own error bodies and is not bound by it.
 */
export const ERROR_CODES = {
  bad_request: 'a parameter, header or cursor the route cannot read; `message` names it',
  validation_failed: "a JSON body or query that breaks the route's schema; `details` lists each problem by path",
  malformed_json: 'the body is not JSON',
  unsupported_media_type: 'the body is not application/json',
  payload_too_large: 'the body is over BODY_LIMIT_BYTES',
  unauthorized: 'missing or wrong credentials',
  too_many_requests: 'too many failed authentications from this address; `Retry-After` says when to try again',
  not_found: 'no such route, connection or record',
  conflict: "the record's state does not allow the action (`message` says why)",
  unavailable: 'the database does not answer; the same request can succeed after `Retry-After`',
  not_ready: '`/readyz`: a dependency check fails (`details.checks` names it)',
  internal_error: 'an unexpected failure: the log has it under the request id',
  http_error: 'any other HTTP failure, with its status',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes as a tuple, for schemas that enumerate them. */
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/**
 * The one error type the service's HTTP layer turns into a response. Every error response has
 * the same JSON body (see `errorBody`); `success:false` and `message` are in it so that the WMS,
 * which reads exactly those two fields from a webhook receiver's answer, shows our message.
 */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export interface ErrorBody {
  success: false;
  error: ErrorCode;
  message: string;
  requestId?: string;
  details?: unknown;
}

export function errorBody(err: AppError, requestId?: string): ErrorBody {
  return {
    success: false,
    error: err.code,
    message: err.message,
    ...(requestId ? { requestId } : {}),
    ...(err.details !== undefined ? { details: err.details } : {}),
  };
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, 'bad_request', message, details);
export const validationFailed = (message: string, details?: unknown) =>
  new AppError(400, 'validation_failed', message, details);
export const unauthorized = (message = 'Missing or invalid credentials', headers?: Record<string, string>) =>
  new AppError(401, 'unauthorized', message, undefined, headers);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string, details?: unknown) => new AppError(409, 'conflict', message, details);
export const payloadTooLarge = (limit: number) =>
  new AppError(413, 'payload_too_large', `Request body exceeds the limit of ${limit} bytes`);
export const unsupportedMediaType = (expected: string) =>
  new AppError(415, 'unsupported_media_type', `Content-Type must be ${expected}`);
/** 503 with `Retry-After`: the same request can succeed once the database (or its disk) is back. */
export const unavailable = (message: string, retryAfterSeconds = 5) =>
  new AppError(503, 'unavailable', message, undefined, { 'Retry-After': String(retryAfterSeconds) });

/** Message of anything thrown, for logs and stored `last_error` columns. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : JSON.stringify(err);
}
