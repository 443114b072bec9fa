import { Hono } from 'hono';
import type { AppEnv } from './lib/http.js';
import { probe } from './lib/probe.js';

export interface Probe {
  name: string;
  check(): Promise<void>;
}

/** `/healthz`: the process answers. `/readyz`: every dependency answers (503 naming the ones that do not). */
export function healthRoutes(probes: Probe[], timeoutMs = 2000): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const results = await Promise.all(probes.map(async (p) => [p.name, (await probe(() => p.check(), timeoutMs)).message] as const));
    const checks = Object.fromEntries(results);
    const failing = results.filter(([, r]) => r !== 'ok');
    if (failing.length === 0) return c.json({ status: 'ready', checks });
    return c.json(
      {
        success: false,
        error: 'not_ready',
        message: failing.map(([n, r]) => `${n}: ${r}`).join('; '),
        requestId: c.get('requestId'),
        details: { checks },
      },
      503,
    );
  });
  return app;
}
