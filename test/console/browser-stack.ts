import { type DemoStack, startDemoStack } from '../../src/demo/stack.js';
import { silentLogger } from '../../src/lib/logger.js';
import { demoTestConfig } from '../support/demo-config.js';
import { createTestSchema } from '../support/pg.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';

export interface ConsoleStack {
  stack: DemoStack;
  /** The service's base URL (the console is at /console). */
  url: string;
  emulatorUrl: string;
  adminToken: string;
  /** The emulator's control API (tenant paths start with /tenants/demo). */
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The admin API, with the admin token. */
  admin(method: string, path: string): Promise<{ status: number; body: any }>;
  /** The ERP API of the demo connection. */
  erp(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

async function json(res: Response) {
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/**
 * What `wms-sync start` runs (emulator + service wired through the demo connection, the ERP sample
 * loaded), on free ports, on SQLite or on a Postgres schema of its own; resolves once the sample
 * data is in the WMS (unless told not to wait), so every page has something to show.
 */
export async function startConsoleStack(
  label: string,
  dialect: 'sqlite' | 'postgres',
  options: { waitForSample?: boolean; env?: Record<string, string> } = {},
): Promise<ConsoleStack> {
  const tmp = tempDir(label);
  const db = dialect === 'postgres' ? await createTestSchema(label) : undefined;
  const config = demoTestConfig(tmp.dir, {
    ...(db ? { DATABASE_URL: db.url, DATABASE_SCHEMA: db.schema } : {}),
    ...options.env,
  });
  const stack = await startDemoStack(config, {
    logger: silentLogger(),
    emulatorInMemory: true,
    queueTuning: {
      sqlite: { maintenanceIntervalMs: 200, cronIntervalMs: 200 },
      pgboss: { maintenanceIntervalSeconds: 1, cronWorkerIntervalSeconds: 1, cronMonitorIntervalSeconds: 1 },
    },
  });
  const url = stack.serviceUrl;
  const s: ConsoleStack = {
    stack,
    url,
    emulatorUrl: stack.emulator.url,
    adminToken: stack.adminToken,
    control: async (method, path, body) =>
      json(
        await fetch(`${stack.emulator.url}/_emulator${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        }),
      ),
    admin: async (method, path) =>
      json(await fetch(`${url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${stack.adminToken}` } })),
    erp: async (method, path, body) =>
      json(
        await fetch(`${url}/erp/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${stack.secrets.erpApiToken}`, 'content-type': 'application/json' },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        }),
      ),
    close: async () => {
      await stack.close();
      await db?.drop();
      tmp.remove();
    },
  };
  if (options.waitForSample !== false) {
    await until(async () => (await s.admin('GET', '/connections/demo/overview')).body.pushes.totals.pending === 0, {
      timeoutMs: 30_000,
      message: 'the ERP sample pushed to the WMS',
    });
  }
  return s;
}
