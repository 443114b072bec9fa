import { randomBytes } from 'node:crypto';
import { buildApp, type ServiceApp } from '../../src/app.js';
import type { JobRegistration, ServiceDeps } from '../../src/deps.js';
import type { Clock } from '../../src/lib/clock.js';
import { loadConfig } from '../../src/lib/config.js';
import {
  type ConnectionConfig,
  type ConnectionInput,
  connectionInputSchema,
  toConnectionConfig,
} from '../../src/lib/connections.js';
import { type Logger, silentLogger } from '../../src/lib/logger.js';
import { openDeps } from '../../src/main.js';
import type { QueueTuning } from '../../src/queue/index.js';
import { startWorkers } from '../../src/worker.js';
import { createTestSchema } from './pg.js';
import { tempDir } from './tmp.js';

/** A connection with fresh random secrets; override any field. */
export function testConnection(name = 'acme', overrides: Partial<ConnectionInput> = {}): ConnectionConfig {
  return toConnectionConfig(
    connectionInputSchema.parse({
      name,
      wmsBaseUrl: 'http://127.0.0.1:9',
      wmsClientId: `client-${name}`,
      wmsClientSecret: randomBytes(12).toString('hex'),
      webhookUsername: `wms-${name}`,
      webhookPassword: randomBytes(12).toString('hex'),
      erpApiToken: randomBytes(16).toString('hex'),
      ...overrides,
    }),
  );
}

export interface TestService {
  deps: ServiceDeps;
  app: ServiceApp;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  /** Names the temp dir or Postgres schema, e.g. the test file's name. */
  label: string;
  dialect?: 'sqlite' | 'postgres';
  connections?: ConnectionConfig[];
  /** Extra env variables (as strings), e.g. BODY_LIMIT_BYTES. */
  env?: Record<string, string>;
  clock?: Clock;
  logger?: Logger;
  /** Register these jobs (or all rooms' jobs with `true`) and run the worker. */
  worker?: boolean | JobRegistration[];
  /** Queue settings over the fast test timers, e.g. a short lease. */
  queueTuning?: QueueTuning;
}

/**
 * The real service (store, queue, app) on a SQLite file of its own or a Postgres schema of its own,
 * with fast queue timers; requests go through `app.request()`.
 */
export async function startTestService(options: TestServiceOptions): Promise<TestService> {
  const dialect = options.dialect ?? 'sqlite';
  const cleanups: (() => Promise<void> | void)[] = [];
  // No scheduled reconciliation unless a test asks for one: the hourly default would add a run
  // (and WMS calls) to any test that crosses the top of an hour.
  const env: Record<string, string> = { LOG_LEVEL: 'silent', RECONCILE_CRON: 'off', ...options.env };
  if (dialect === 'sqlite') {
    const tmp = tempDir(options.label);
    env.DATA_DIR = tmp.dir;
    cleanups.push(tmp.remove);
  } else {
    const db = await createTestSchema(options.label);
    env.DATABASE_URL = db.url;
    env.DATABASE_SCHEMA = db.schema;
    cleanups.push(db.drop);
  }
  const config = { ...loadConfig(env), connections: options.connections ?? [testConnection()] };
  const deps = await openDeps(config, {
    logger: options.logger ?? silentLogger(),
    ...(options.clock ? { clock: options.clock } : {}),
    queueTuning: {
      sqlite: { maintenanceIntervalMs: 100, cronIntervalMs: 100, ...options.queueTuning?.sqlite },
      pgboss: {
        maintenanceIntervalSeconds: 1,
        cronWorkerIntervalSeconds: 1,
        cronMonitorIntervalSeconds: 1,
        ...options.queueTuning?.pgboss,
      },
    },
  });
  if (options.worker) await startWorkers(deps, options.worker === true ? undefined : options.worker);
  return {
    deps,
    app: buildApp(deps),
    close: async () => {
      await deps.queue.stop({ graceMs: 2000 });
      await deps.store.close();
      for (const c of cleanups.reverse()) await c();
    },
  };
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
