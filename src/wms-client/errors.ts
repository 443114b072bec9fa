import { badRequestObjectSchema, conflictObjectSchema, tokenErrorSchema } from '../wms/index.js';

/**
 * How a call failed: an HTTP answer, no answer in time, no answer at all, an answer we cannot
 * read, or a request that cannot be sent at all (a code that cannot be a URL path segment).
 */
export type WmsErrorKind = 'http' | 'timeout' | 'network' | 'invalid-response' | 'invalid-request';

export interface WmsErrorInit {
  kind: WmsErrorKind;
  operation: string;
  method: string;
  /** Path only: never the query string's values nor any credential. */
  path: string;
  status?: number;
  body?: unknown;
  retryAfterMs?: number;
  detail?: string;
}

/**
 * The one error every WMS call throws. `retryable` says whether calling again can help: network
 * errors, timeouts, 409, 429 and 5xx can; 400, 401 (after the client's own refresh), 403, 404 and
 * unreadable answers cannot. It holds no request options, so logging it never prints a secret.
 */
export class WmsError extends Error {
  readonly kind: WmsErrorKind;
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  /** HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** The WMS's error body as parsed (bad-request object, conflict object, token error), or its text. */
  readonly body: unknown;
  readonly retryable: boolean;
  /** From a `Retry-After` header, when the WMS sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(init: WmsErrorInit) {
    super(describe(init));
    this.name = 'WmsError';
    this.kind = init.kind;
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status ?? 0;
    this.body = init.body;
    this.retryable = isRetryable(init.kind, this.status);
    this.retryAfterMs = init.retryAfterMs;
  }

  /** What to store and show: status, the WMS's own message, and its body. */
  toJSON(): {
    kind: WmsErrorKind;
    operation: string;
    status: number;
    message: string;
    body: unknown;
    retryable: boolean;
  } {
    return {
      kind: this.kind,
      operation: this.operation,
      status: this.status,
      message: this.message,
      body: this.body ?? null,
      retryable: this.retryable,
    };
  }
}

export function isRetryable(kind: WmsErrorKind, status: number): boolean {
  if (kind === 'timeout' || kind === 'network') return true;
  if (kind === 'invalid-response' || kind === 'invalid-request') return false;
  return status === 409 || status === 429 || status >= 500;
}

/** The human part of a WMS error body: JHipster puts it in `title`; the token endpoint in `error_description`. */
export function wmsMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() ? body.trim().slice(0, 500) : undefined;
  for (const schema of [badRequestObjectSchema, conflictObjectSchema]) {
    const parsed = schema.safeParse(body);
    if (parsed.success) {
      const d = parsed.data as {
        title?: string | null;
        detail?: string | null;
        localizedMessage?: string | null;
        message?: string | null;
      };
      const text = d.title ?? d.detail ?? d.localizedMessage ?? d.message;
      if (text) return text;
    }
  }
  const token = tokenErrorSchema.safeParse(body);
  if (token.success) return token.data.error_description ?? token.data.error;
  return undefined;
}

function describe(init: WmsErrorInit): string {
  const where = `${init.operation} (${init.method} ${init.path})`;
  switch (init.kind) {
    case 'timeout':
      return `${where}: no answer within the timeout`;
    case 'network':
      return `${where}: connection failed${init.detail ? `: ${init.detail}` : ''}`;
    case 'invalid-request':
      return `${where}: not sent: ${init.detail ?? 'invalid request'}`;
    case 'invalid-response':
      return `${where}: answer ${init.status} does not match the spec${init.detail ? `: ${init.detail}` : ''}`;
    default:
      return `${where}: ${init.status} ${wmsMessage(init.body) ?? 'error'}`;
  }
}
