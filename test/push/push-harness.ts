import type { Clock } from '../../src/lib/clock.js';
import type { ConnectionConfig } from '../../src/lib/connections.js';
import type { PushEntity, PushRecord } from '../../src/store/index.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { type FaultyProxy, startFaultyProxy } from '../support/faulty-proxy.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';
import { erp } from './support.js';

export interface PushHarness {
  wms: RunningEmulator;
  proxy: FaultyProxy;
  svc: TestService;
  acme: ConnectionConfig;
  put(kind: string, code: string, body: unknown): Promise<number>;
  /** The record once `done` holds for it (default: not pending any more). */
  settled(entity: PushEntity, code: string, done?: (r: PushRecord) => boolean, timeoutMs?: number): Promise<PushRecord>;
  /** Calls the proxy forwarded or answered for `method` on paths matching `glob`. */
  calls(method: string, glob: string): number;
  close(): Promise<void>;
}

/**
 * Settings that keep the retry tests short; the behaviour is the production one. The WMS timeout
 * and the reference wait stay long: on a busy machine a short one fires by accident (a push
 * retried, a cancel given up on). Tests of a lost answer use the proxy's `lose`/`hold` faults.
 */
export const FAST_PUSH_ENV = {
  WMS_TIMEOUT_MS: '10000',
  WMS_MAX_CONCURRENCY: '4',
  PUSH_RETRY_BASE_MS: '20',
  PUSH_RETRY_MAX_MS: '2000',
  PUSH_MAX_ATTEMPTS: '6',
  PUSH_DEPENDENCY_TIMEOUT_SECONDS: '60',
  QUEUE_POLL_INTERVAL_MS: '50',
  WORKER_CONCURRENCY: '2',
  WORKER_BATCH_SIZE: '10',
};

/**
 * The service with its worker, on SQLite or Postgres, pushing to the real emulator through a
 * faulty proxy: the tenant `acme` exists in the emulator with an API client the connection uses.
 */
export async function startPushHarness(
  label: string,
  dialect: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<PushHarness> {
  const wms = await startEmulator();
  const proxy = await startFaultyProxy(wms.url);
  const acme = wmsConnection('acme', proxy.url, await wms.tenant('acme'));
  const svc = await startTestService({
    label,
    dialect,
    connections: [acme],
    worker: true,
    env: { ...FAST_PUSH_ENV, ...env },
    ...(clock ? { clock } : {}),
  });
  return {
    wms,
    proxy,
    svc,
    acme,
    put: async (kind, code, body) =>
      (await erp(svc.app, acme, 'PUT', `/erp/v1/${kind}/${encodeURIComponent(code)}`, { json: body })).status,
    settled: (entity, code, done = (r) => r.state !== 'pending', timeoutMs = 10_000) =>
      until(
        async () => {
          const r = await svc.deps.store.pushes.get('acme', entity, code);
          return r && done(r) ? r : undefined;
        },
        { timeoutMs, message: `${entity} ${code} settled` },
      ),
    calls: (method, glob) => proxy.count(method, glob),
    close: async () => {
      await svc.close();
      await proxy.close();
      await wms.close();
    },
  };
}

async function wmsToken(h: PushHarness): Promise<string> {
  const res = await fetch(`${h.wms.url}/api/external/v1/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: h.acme.wms.clientId, client_secret: h.acme.wms.clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A call straight to the emulator (not through the code under test, nor the proxy). */
export async function wmsSend(
  h: PushHarness,
  method: string,
  path: string,
  json?: unknown,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${await wmsToken(h)}` };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${h.wms.url}/api/external/v1${path}`, {
    method,
    headers,
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** What the WMS holds, asked directly. */
export function wmsGet(h: PushHarness, path: string): Promise<{ status: number; body: any }> {
  return wmsSend(h, 'GET', path);
}
