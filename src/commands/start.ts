import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_CONNECTION, DEMO_WEBHOOK_USERNAME, demoSecretsFile } from '../demo/connection.js';
import { type DemoStack, startDemoStack } from '../demo/stack.js';
import { DEMO_TENANT } from '../emulator/index.js';
import { createLogger } from '../lib/logger.js';
import { configFrom, parse, UsageError, withUsage } from './args.js';
import type { Command } from './types.js';

/** Where `start` runs the sample ERP, and where `demo` looks for it. */
export const DEFAULT_SAMPLE_ERP_PORT = 8091;

const help = `Usage: wms-sync start [--port N] [--emulator-port N] [--erp-port N] [--no-sample-erp] [--fresh]

The embedded default (what \`npm start\` runs): the WMS emulator (seeded tenant "demo") and the
service (SQLite under DATA_DIR, embedded job queue), wired both ways through a connection named
"demo": the service calls the emulator with the demo API client, the emulator sends its webhooks
to the service. It then loads the ERP sample data (fixtures/erp) through the ERP API and prints
where to look. State survives a restart (the emulator's too, in DATA_DIR/emulator.db).
Logs are quiet (warnings and errors) unless LOG_LEVEL is set. The reconciliation settle window is
3 s here (120 s in \`serve\`) unless RECONCILE_SETTLE_SECONDS is set, so the demo answers in seconds.
A sample ERP receiver runs beside them (docs/erp-delivery.md): the demo connection pushes its feed
events there, signed, and asks it about every close document first (ERP_CLOSE_ACK=sync), so it can
refuse one (PUT /reject/{documentCode} {"message": "…"}); GET /messages lists what it got.

Options:
  --port N            service port (default PORT or 8080)
  --emulator-port N   emulator port (default EMULATOR_PORT or 8090)
  --erp-port N        the sample ERP's port (default ${DEFAULT_SAMPLE_ERP_PORT})
  --no-sample-erp     no sample ERP: the demo connection's ERP only polls the feed
  --fresh             wipe the service's and the emulator's data first`;

/** A short settle window for the embedded demo: a drift is confirmed by a second look this much later. */
export const DEMO_SETTLE_SECONDS = '3';

/** Files `start` keeps in DATA_DIR; `--fresh` removes them. */
function stateFiles(dataDir: string, sqliteFile: string | undefined): string[] {
  const dbs = [join(dataDir, 'emulator.db'), ...(sqliteFile ? [sqliteFile] : [])];
  return [...dbs.flatMap((f) => [f, `${f}-wal`, `${f}-shm`]), demoSecretsFile(dataDir)];
}

/** `demo` finds start on the default ports by itself; on any other ports it must be told where. */
function demoCommandLine(url: string, emulator: string): string {
  const defaults = url === 'http://127.0.0.1:8080' && emulator === 'http://127.0.0.1:8090';
  return (defaults ? 'npx wms-sync demo' : `npx wms-sync demo --service ${url} --emulator ${emulator}`).padEnd(32);
}

export function startSummary(stack: DemoStack, storage: string, dataDir: string, publicUrl?: string): string {
  const url = stack.serviceUrl;
  const emulator = stack.emulator.url;
  const token = stack.secrets.erpApiToken;
  const line = (label: string, value: string, note = '') => `  ${label.padEnd(16)}${value}${note ? `   ${note}` : ''}`;
  const queued = stack.loaded.reduce((n, l) => n + l.queued, 0);
  return [
    '',
    `wms-sync is running: the WMS emulator and the service, wired both ways (${storage}).`,
    '',
    line('Service', url, '/healthz  /readyz  /metrics'),
    line('Console', `${url}/console`, 'sign in with the admin token'),
    line(
      'Admin token',
      stack.adminTokenFromEnv ? '(ADMIN_TOKEN)' : stack.adminToken,
      'also Authorization: Bearer … on /admin/v1',
    ),
    ...(publicUrl ? [line('Public URL', publicUrl, `webhooks: ${publicUrl}/webhooks/${DEMO_CONNECTION}/{kind}`)] : []),
    line('API docs', `${url}/docs`, `OpenAPI: ${url}/openapi.json`),
    line('Emulator', emulator, `tenant "${DEMO_TENANT}"`),
    line('Emulator docs', `${emulator}/_emulator/docs`),
    ...(stack.sampleErp
      ? [
          line(
            'Sample ERP',
            stack.sampleErp.url,
            'GET /messages   PUT /reject/{documentCode} {"message":…}   (docs/erp-delivery.md)',
          ),
        ]
      : []),
    '',
    `  Demo connection "${DEMO_CONNECTION}"`,
    line('  ERP token', token, 'Authorization: Bearer …'),
    line('  WMS client', `${stack.demoClient.clientId} / ${stack.demoClient.clientSecret}`),
    line('  Webhooks', `Basic ${DEMO_WEBHOOK_USERNAME} / ${stack.secrets.webhookPassword}`),
    ...(stack.sampleErp
      ? [
          line(
            '  ERP webhook',
            stack.sampleErp.webhookUrl,
            `signed with ${stack.secrets.erpWebhookSecret.slice(0, 12)}…; close documents: sync`,
          ),
        ]
      : []),
    line(
      '  ERP sample',
      stack.loaded.map((l) => `${l.kind} ${l.queued + l.unchanged}`).join(', '),
      `(${queued} queued for the WMS)`,
    ),
    line('  Data', dataDir, 'wms-sync start --fresh starts over'),
    '',
    'Try:',
    `  ${demoCommandLine(url, emulator)}  # a reception, a shipment, a return, a lost webhook, a reconciliation${stack.sampleErp ? ', an ERP refusal' : ''}`,
    `  curl -s -H "Authorization: Bearer ${token}" ${url}/erp/v1/feed`,
    `  npx wms-sync emulator trigger regularization --url ${emulator} --product OLV-OIL-1L --lot L2600A --quantity 3 --wait`,
    '',
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

export const startCommand: Command = {
  name: 'start',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values } = parse(args, {
        port: { type: 'string' },
        'emulator-port': { type: 'string' },
        'erp-port': { type: 'string' },
        'no-sample-erp': { type: 'boolean' },
        fresh: { type: 'boolean' },
      });
      const erpPort = portOption(values['erp-port'], DEFAULT_SAMPLE_ERP_PORT);
      const config = configFrom(ctx, {
        PORT: values.port,
        EMULATOR_PORT: values['emulator-port'],
        RECONCILE_SETTLE_SECONDS: ctx.env.RECONCILE_SETTLE_SECONDS ?? DEMO_SETTLE_SECONDS,
      });
      if (!config) return 1;
      const sqliteFile = config.database.kind === 'sqlite' ? config.database.file : undefined;
      if (values.fresh) for (const f of stateFiles(config.dataDir, sqliteFile)) rmSync(f, { force: true });
      const logger = createLogger({ level: ctx.env.LOG_LEVEL ? config.logLevel : 'warn' });
      const stack = await startDemoStack(config, {
        logger,
        guardProcess: true,
        ...(values['no-sample-erp'] ? {} : { sampleErp: { port: erpPort } }),
      });
      ctx.stdout.write(
        startSummary(stack, sqliteFile ? `SQLite ${sqliteFile}` : 'Postgres', config.dataDir, config.publicUrl),
      );
      await ctx.stopSignal;
      await stack.close();
      return 0;
    }),
};

function portOption(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--erp-port expects a port (0-65535), got "${value}"`);
  return port;
}
