import { Hono } from 'hono';
import type { ErrorCode } from './lib/errors.js';
import type { AppEnv } from './lib/http.js';
import { probe } from './lib/probe.js';

export const NO_CONNECTION_MESSAGE =
  'no connection configured: set WMS_BASE_URL, WMS_CLIENT_ID, WMS_CLIENT_SECRET, WEBHOOK_USERNAME, WEBHOOK_PASSWORD and ERP_API_TOKEN (or CONNECTIONS_FILE); until then every webhook and ERP request is refused';

export interface Probe {
  name: string;
  check(): Promise<void>;
}

/** What `/readyz` checks, and the `wms_sync_ready` gauge with it: the store, the queue, a connection. */
export function readinessProbes(deps: {
  store: { ping(): Promise<void> };
  queue: { ping(): Promise<void> };
  space: { shortage(): string | undefined };
  connections: { all(): readonly unknown[] };
}): Probe[] {
  return [
    { name: 'store', check: () => deps.store.ping() },
    { name: 'queue', check: () => deps.queue.ping() },
    {
      name: 'storage',
      check: async () => {
        const short = deps.space.shortage();
        if (short) throw new Error(`storage short: ${short}`);
      },
    },
    {
      name: 'connections',
      check: async () => {
        if (deps.connections.all().length === 0) throw new Error(NO_CONNECTION_MESSAGE);
      },
    },
  ];
}

export interface HealthOptions {
  timeoutMs?: number;
  /**
   * Whether the caller may see why a check failed (it presents the admin token). Others only
   * learn which check failed: the reasons name database hosts and other internals.
   */
  showsReasons?: (authorization: string | undefined) => boolean;
}

/** `/healthz`: the process answers. `/readyz`: every dependency answers (503 naming the ones that do not). */
export function healthRoutes(probes: Probe[], options: HealthOptions = {}): Hono<AppEnv> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const results = await Promise.all(
      probes.map(async (p) => [p.name, (await probe(() => p.check(), timeoutMs)).message] as const),
    );
    const failing = results.filter(([, r]) => r !== 'ok');
    const reasons = failing.length > 0 && (options.showsReasons?.(c.req.header('authorization')) ?? false);
    const checks = Object.fromEntries(results.map(([n, r]) => [n, r === 'ok' || reasons ? r : 'failing']));
    if (failing.length === 0) return c.json({ status: 'ready', checks });
    return c.json(
      {
        success: false,
        error: 'not_ready' satisfies ErrorCode,
        message: reasons
          ? failing.map(([n, r]) => `${n}: ${r}`).join('; ')
          : `not ready: ${failing.map(([n]) => n).join(', ')}`,
        requestId: c.get('requestId'),
        details: { checks },
      },
      503,
    );
  });
  return app;
}
