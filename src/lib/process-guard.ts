import type { EventEmitter } from 'node:events';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from './logger.js';

/**
 * Error codes a peer causes on a socket (it closed, reset, stopped answering, or the call was let
 * go). An outgoing client reads them as a failed attempt; one that escapes its request (a socket
 * that fails after its exchange ended) changes nothing the process holds, so it goes on.
 */
const PEER_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNABORTED',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
  'ERR_HTTP_HEADERS_SENT',
  'ABORT_ERR',
]);

/** Whether the process can go on after this error escaped every handler. */
export function isPeerError(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; cause?: { code?: unknown } } | null | undefined;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  if (code !== undefined && (PEER_ERROR_CODES.has(code) || code.startsWith('UND_ERR_'))) return true;
  return e?.name === 'AbortError';
}

/** Exit status when an unexpected error leaves the process in a state it cannot vouch for. */
export const UNSAFE_EXIT_CODE = 70;

export interface ProcessGuardOptions {
  logger: Logger;
  registry: Registry;
  /** The process (tests pass another emitter). */
  target?: EventEmitter;
  /** Ends the process for its supervisor; `process.exit` by default. */
  exit?: (code: number) => void;
}

/**
 * Catches what escaped every handler (`uncaughtException`, `unhandledRejection`): logs it and
 * counts it in `wms_sync_unexpected_errors_total{kind,action}`. A peer's socket error leaves the
 * process as it was, so it goes on; anything else may have left a half-done change in memory, so
 * the process logs the reason and exits with status 70 for its supervisor to restart it. Returns
 * the function that removes the guard.
 */
export function installProcessGuard(options: ProcessGuardOptions): () => void {
  const target = options.target ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const counter =
    (options.registry.getSingleMetric('wms_sync_unexpected_errors_total') as Counter<'kind' | 'action'> | undefined) ??
    new Counter({
      name: 'wms_sync_unexpected_errors_total',
      help: 'Errors no handler caught (kind: uncaught_exception, unhandled_rejection; action: continued, exited)',
      labelNames: ['kind', 'action'],
      registers: [options.registry],
    });
  const handle = (kind: 'uncaught_exception' | 'unhandled_rejection') => (err: unknown) => {
    const detail =
      err instanceof Error
        ? { err: err.message, code: (err as { code?: unknown }).code, stack: err.stack }
        : { err: String(err) };
    if (isPeerError(err)) {
      counter.inc({ kind, action: 'continued' });
      options.logger.error({ kind, ...detail }, 'unexpected error from a peer connection; the process goes on');
      return;
    }
    counter.inc({ kind, action: 'exited' });
    options.logger.fatal(
      { kind, ...detail, exitCode: UNSAFE_EXIT_CODE },
      'unexpected error; the process exits for its supervisor to restart it',
    );
    // The reason reaches the log before the process ends (a second at most if the log stalls).
    const fallback = setTimeout(() => exit(UNSAFE_EXIT_CODE), 1000);
    options.logger.flush(() => {
      clearTimeout(fallback);
      exit(UNSAFE_EXIT_CODE);
    });
  };
  const onException = handle('uncaught_exception');
  const onRejection = handle('unhandled_rejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}
