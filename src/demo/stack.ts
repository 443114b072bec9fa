import { join } from 'node:path';
import { DEMO_TENANT, type EmulatorServer, startEmulatorServer } from '../emulator/index.js';
import { parseAdminTokens } from '../lib/admin-tokens.js';
import type { Config } from '../lib/config.js';
import type { Logger } from '../lib/logger.js';
import { type RunningService, runService } from '../main.js';
import type { QueueTuning } from '../queue/index.js';
import { DEMO_CONNECTION, type DemoSecrets, demoConnection, loadOrCreateDemoSecrets } from './connection.js';
import { type LoadSummary, loadErpFixtures } from './fixtures.js';
import { type SampleErp, startSampleErp } from './sample-erp.js';
import { wireWebhooks } from './wire.js';

export interface DemoStack {
  service: RunningService;
  emulator: EmulatorServer;
  serviceUrl: string;
  secrets: DemoSecrets;
  /** The console's sign-in token: ADMIN_TOKEN when set, else the demo's own (kept with its secrets). */
  adminToken: string;
  /** True when ADMIN_TOKEN came from the environment (so the summary does not echo it). */
  adminTokenFromEnv: boolean;
  demoClient: { clientId: string; clientSecret: string };
  loaded: LoadSummary[];
  /** The sample ERP receiver, when wired: feed events pushed to it, close documents acknowledged by it. */
  sampleErp?: SampleErp;
  close(): Promise<void>;
}

/**
 * The emulator and the service wired both ways through the `demo` connection, with the ERP sample
 * data loaded: what `wms-sync start`, `wms-sync demo --embedded` and the scenario test run.
 * `config.emulator.port`/`config.port` may be 0 (free ports); the emulator's state lives in
 * DATA_DIR/emulator.db unless `emulatorInMemory`.
 */
export async function startDemoStack(
  config: Config,
  options: {
    logger: Logger;
    emulatorInMemory?: boolean;
    queueTuning?: QueueTuning;
    sampleErp?: { port: number; host?: string };
    /** Install the process guard (lib/process-guard.ts), as `wms-sync start` does. */
    guardProcess?: boolean;
  },
): Promise<DemoStack> {
  const demoClient = { clientId: config.emulator.demoClientId, clientSecret: config.emulator.demoClientSecret };
  const emulator = await startEmulatorServer({
    port: config.emulator.port,
    host: config.emulator.host,
    ...(options.emulatorInMemory ? {} : { dataFile: join(config.dataDir, 'emulator.db') }),
    dataDir: config.dataDir,
    webhookLogMax: config.emulator.webhookLogMax,
    seed: 'demo',
    demoClient,
    logger: options.logger.child({ room: 'emulator' }),
    ...(config.emulator.signingKey ? { signingKey: config.emulator.signingKey } : {}),
    ...(config.emulator.adminToken ? { adminToken: config.emulator.adminToken } : {}),
  });
  let service: RunningService | undefined;
  let sampleErp: SampleErp | undefined;
  try {
    const secrets = loadOrCreateDemoSecrets(config.dataDir);
    if (options.sampleErp)
      sampleErp = await startSampleErp({ ...options.sampleErp, secrets: [secrets.erpWebhookSecret] });
    const connection = demoConnection({
      emulatorUrl: emulator.url,
      ...demoClient,
      secrets,
      ...(sampleErp ? { erpWebhookUrl: sampleErp.webhookUrl } : {}),
    });
    const adminToken = config.admin.token ?? secrets.adminToken;
    service = await runService(
      {
        ...config,
        admin: { ...config.admin, token: adminToken, ...parseAdminTokens(config.env.ADMIN_TOKENS, adminToken) },
        connections: [connection, ...config.connections.filter((c) => c.name !== DEMO_CONNECTION)],
      },
      {
        http: true,
        worker: true,
        guardProcess: options.guardProcess ?? false,
        logger: options.logger,
        // The console's emulator panel reaches the emulator over HTTP (the service never imports it).
        emulator: {
          url: emulator.url,
          tenant: DEMO_TENANT,
          connection: DEMO_CONNECTION,
          adminToken: config.emulator.adminToken,
        },
        ...(options.queueTuning ? { queueTuning: options.queueTuning } : {}),
      },
    );
    const serviceUrl = service.http!.url;
    await wireWebhooks({
      emulatorUrl: emulator.url,
      tenant: DEMO_TENANT,
      serviceUrl,
      connection: DEMO_CONNECTION,
      password: secrets.webhookPassword,
      ...(config.emulator.adminToken ? { adminToken: config.emulator.adminToken } : {}),
    });
    const loaded = await loadErpFixtures(serviceUrl, secrets.erpApiToken);
    const running = service;
    return {
      service: running,
      emulator,
      serviceUrl,
      secrets,
      adminToken,
      adminTokenFromEnv: config.admin.token !== undefined,
      demoClient,
      loaded,
      ...(sampleErp ? { sampleErp } : {}),
      close: async () => {
        await running.close();
        await sampleErp?.close();
        await emulator.close();
      },
    };
  } catch (err) {
    await service?.close();
    await sampleErp?.close();
    await emulator.close();
    throw err;
  }
}
