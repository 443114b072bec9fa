import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one error type the service's HTTP layer turns into a response. Every error response has
 * the same JSON body (see `errorBody`); `success:false` and `message` are in it so that the WMS,
 * which reads exactly those two fields from a webhook receiver's answer, shows our message.
 */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
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
  error: string;
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
export const forbidden = (message = 'Not allowed') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string, details?: unknown) => new AppError(409, 'conflict', message, details);
export const payloadTooLarge = (limit: number) =>
  new AppError(413, 'payload_too_large', `Request body exceeds the limit of ${limit} bytes`);
export const unsupportedMediaType = (expected: string) =>
  new AppError(415, 'unsupported_media_type', `Content-Type must be ${expected}`);
export const unavailable = (message: string) => new AppError(503, 'unavailable', message);

/** Message of anything thrown, for logs and stored `last_error` columns. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : JSON.stringify(err);
}
