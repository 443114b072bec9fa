import type { Context, MiddlewareHandler } from 'hono';
import type { Clock } from '../lib/clock.js';
import { AppError, errorMessage } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import type { Store } from '../store/index.js';
import type { AuditChannel, AuditOutcome } from '../store/values.js';

/** What a handler says of the action it ran, over what the path alone tells. */
export interface AuditNote {
  action?: string;
  target?: string;
  connection?: string;
  outcome?: AuditOutcome;
  /** Plain words: the operator's reason, the counts of a bulk action, the ERP's answer. */
  detail?: string;
  /** The action changed nothing (a dry run): no entry. */
  dryRun?: boolean;
  /** The action wrote its own entry, in its own transaction (an override, with its reason). */
  recorded?: boolean;
}

/** Variables the audit trail reads from a request. */
export interface AuditVars {
  operator?: string;
  audit?: AuditNote;
}

type AuditContext = Context<{ Variables: AuditVars & { log: Logger } }>;

/** Adds to the request's audit note (several calls merge). */
export function noteAudit(c: Context, note: AuditNote): void {
  const ctx = c as unknown as AuditContext;
  ctx.set('audit', { ...ctx.get('audit'), ...note });
}

/**
 * The action and target a path names, the same for the admin API and the console (both mirror
 * one another's paths): `/events/12/retry` is `event.retry` on `event:12`, whichever the channel.
 */
const ACTIONS: [RegExp, (m: RegExpExecArray) => Pick<AuditNote, 'action' | 'target'>][] = [
  [/^\/events\/(\d+)\/retry$/, (m) => ({ action: 'event.retry', target: `event:${m[1]}` })],
  [/^\/events\/(\d+)\/override$/, (m) => ({ action: 'event.override', target: `event:${m[1]}` })],
  [/^\/events\/(\d+)\/(payload|edit)$/, (m) => ({ action: 'event.edit', target: `event:${m[1]}` })],
  [/^\/events\/retry$/, () => ({ action: 'events.retry' })],
  [/^\/pushes\/document\/([^/]+)\/cancel$/, (m) => ({ action: 'document.cancel', target: `document:${m[1]}` })],
  [/^\/pushes\/retry-failed$/, () => ({ action: 'pushes.retry-failed' })],
  [/^\/pushes\/([^/]+)\/([^/]+)\/retry$/, (m) => ({ action: 'push.retry', target: `${m[1]}:${m[2]}` })],
  [/^\/reconciliations$/, () => ({ action: 'reconciliation.start' })],
  [/^\/deliveries\/(\d+)\/resend$/, (m) => ({ action: 'delivery.resend', target: `delivery:${m[1]}` })],
  [/^\/deliveries\/resend$/, () => ({ action: 'deliveries.resend' })],
  [/^\/emulator\/([^/]+)$/, (m) => ({ action: `emulator.${m[1]}` })],
];

/** A path segment decoded, or as sent when it is not valid percent-encoding (the route answers it). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The action, target and connection of a state-changing path under `prefix`. */
export function describePath(prefix: string, method: string, path: string): AuditNote {
  let rest = path.startsWith(prefix) ? path.slice(prefix.length) : path;
  let connection: string | undefined;
  const scoped = /^\/connections\/([^/]+)(\/.*)?$/.exec(rest);
  if (scoped) {
    connection = decoded(scoped[1]!);
    rest = scoped[2] ?? '';
  }
  for (const [pattern, name] of ACTIONS) {
    const m = pattern.exec(rest);
    if (m) {
      const named = name(m);
      return {
        ...named,
        ...(named.target ? { target: decoded(named.target) } : {}),
        ...(connection ? { connection } : {}),
      };
    }
  }
  return { action: `${method.toLowerCase()} ${rest || '/'}`, ...(connection ? { connection } : {}) };
}

export interface AuditTrailOptions {
  store: Store;
  clock: Clock;
  channel: AuditChannel;
  /** The path prefix actions are named under (`/admin/v1`, `/console`). */
  prefix: string;
  /** The operator of the request (set by authentication before this runs). */
  operator: (c: Context) => string | undefined;
  /** Requests that change nothing (a dry run, a check, signing out) are not operator actions. */
  skip?: (c: Context) => boolean;
  /** The outcome when the handler noted none (the console reads its flash). */
  outcome?: (c: Context) => Pick<AuditNote, 'outcome' | 'detail'> | undefined;
}

function outcomeOfStatus(status: number): AuditOutcome {
  return status >= 500 ? 'failed' : status >= 400 ? 'refused' : 'ok';
}

/**
 * Records every state-changing request (POST, PUT, PATCH, DELETE) of an authenticated operator,
 * whatever its outcome: who, when, what, on what, how it ended. Kept in this one place, so no
 * action can be added without its entry. A failure to write the entry is logged, not turned into
 * the action's failure: the action has happened by then.
 */
export function auditTrail(options: AuditTrailOptions): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || options.skip?.(c)) return next();
    let thrown: unknown;
    try {
      await next();
    } catch (err) {
      thrown = err;
    }
    const operator = options.operator(c);
    const ctx = c as unknown as AuditContext;
    const noted = ctx.get('audit');
    if (operator && !noted?.dryRun && !noted?.recorded) {
      const note = { ...describePath(options.prefix, c.req.method, c.req.path), ...noted };
      // Hono hands a handler's error to the error handler before this sees it: c.error keeps it.
      const error = thrown ?? c.error;
      const status = thrown instanceof AppError ? thrown.status : thrown ? 500 : c.res.status;
      const fallback = options.outcome?.(c);
      const outcome = note.outcome ?? fallback?.outcome ?? outcomeOfStatus(status);
      const detail =
        note.detail ?? fallback?.detail ?? (error ? errorMessage(error) : status >= 400 ? `HTTP ${status}` : null);
      try {
        await options.store.audit.record({
          at: options.clock.now(),
          operator,
          channel: options.channel,
          action: note.action ?? 'unknown',
          connection: note.connection ?? null,
          target: note.target ?? null,
          outcome,
          detail: detail ? detail.slice(0, 2000) : null,
        });
      } catch (err) {
        ctx
          .get('log')
          .error({ err: errorMessage(err), operator, action: note.action }, 'could not record an audit entry');
      }
    }
    if (thrown) throw thrown;
  };
}
