import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulatorServer } from '../emulator/index.js';
import { ConfigError, loadConfig } from '../lib/config.js';
import { errorMessage } from '../lib/errors.js';
import { createLogger } from '../lib/logger.js';
import { runTrigger, TRIGGER_HELP } from './emulator-trigger.js';
import type { Command, CommandContext } from './types.js';

const HELP = `Usage: wms-sync emulator [--port 8090] [--host 127.0.0.1] [--data FILE] [--seed demo]
       wms-sync emulator trigger <reception|shipment|regularization> [options]   (see below)

Runs the WMS emulator alone: the warehouse management service's external API
(/api/external/v1, OAuth2 token at /oauth/token) with its own state, plus a control API
under /_emulator to create tenants and API clients. Stops on SIGINT/SIGTERM.

Options:
  --port N       port to listen on (default EMULATOR_PORT, 8090; 0 picks a free one)
  --host HOST    address to bind (default EMULATOR_HOST, 127.0.0.1)
  --data FILE    keep state in this SQLite file, so it survives a restart (default: in memory)
  --seed demo    create tenant "demo" with API client EMULATOR_DEMO_CLIENT_ID /
                 EMULATOR_DEMO_CLIENT_SECRET (default demo-client / demo-secret), a few
                 products and delivery points
  -h, --help     show this help

Environment:
  EMULATOR_ADMIN_TOKEN              required as a Bearer on /_emulator when set; without it the
                                    control API answers loopback callers only
  EMULATOR_SIGNING_KEY              key for the HS256 tokens (generated and kept in --data if unset)
  EMULATOR_TOKEN_SERVICE_DISABLED   true: POST /api/external/v1/auth/token answers 503
  LOG_LEVEL, BODY_LIMIT_BYTES

Examples:
  wms-sync emulator --seed demo
  wms-sync emulator --port 9000 --data ./data/emulator.db

${TRIGGER_HELP}`;

function usage(ctx: CommandContext, message: string): number {
  ctx.stderr.write(`wms-sync emulator: ${message}\n\n${HELP}`);
  return 2;
}

export const emulatorCommand: Command = {
  name: 'emulator',
  help: HELP,
  async run(args, ctx) {
    if (args[0] === 'trigger') return runTrigger(args.slice(1), ctx);
    let values: { port?: string; host?: string; data?: string; seed?: string };
    try {
      ({ values } = parseArgs({
        args,
        options: {
          port: { type: 'string' },
          host: { type: 'string' },
          data: { type: 'string' },
          seed: { type: 'string' },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (err) {
      return usage(ctx, errorMessage(err));
    }
    if (values.port !== undefined && !/^\d{1,5}$/.test(values.port))
      return usage(ctx, `--port expects a number 0-65535, got "${values.port}"`);
    const port = values.port === undefined ? undefined : Number(values.port);
    if (port !== undefined && port > 65535) return usage(ctx, `--port expects a number 0-65535, got "${values.port}"`);
    if (values.seed !== undefined && values.seed !== 'demo')
      return usage(ctx, `--seed accepts only "demo", got "${values.seed}"`);

    let config;
    try {
      config = loadConfig(ctx.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      ctx.stderr.write(`wms-sync emulator: ${err.message}\n`);
      return 1;
    }
    const settings = config.emulator;
    const logger = createLogger({ level: config.logLevel, name: 'emulator', destination: ctx.stderr });
    let server;
    try {
      server = await startEmulatorServer({
        port: port ?? settings.port,
        host: values.host ?? settings.host,
        logger,
        bodyLimitBytes: config.bodyLimitBytes,
        tokenServiceDisabled: settings.tokenServiceDisabled,
        demoClient: { clientId: settings.demoClientId, clientSecret: settings.demoClientSecret },
        ...(values.data ? { dataFile: values.data } : {}),
        // Snapshots go under the data file's directory, or DATA_DIR for an in-memory emulator.
        dataDir: values.data ? dirname(values.data) : config.dataDir,
        webhookLogMax: settings.webhookLogMax,
        ...(values.seed === 'demo' ? { seed: 'demo' as const } : {}),
        ...(settings.signingKey ? { signingKey: settings.signingKey } : {}),
        ...(settings.adminToken ? { adminToken: settings.adminToken } : {}),
      });
    } catch (err) {
      ctx.stderr.write(`wms-sync emulator: cannot start: ${errorMessage(err)}\n`);
      return 1;
    }
    const lines = [
      `WMS emulator listening on ${server.url}`,
      `  API            ${server.url}/api/external/v1  (token: POST /api/external/v1/auth/token; OAuth2: POST /oauth/token)`,
      `  control API    ${server.url}/_emulator${settings.adminToken ? '  (Bearer EMULATOR_ADMIN_TOKEN)' : '  (loopback only)'}`,
      `  API reference  ${server.url}/_emulator/docs`,
      `  state          ${values.data ?? 'in memory'}`,
      `  snapshots      ${join(values.data ? dirname(values.data) : config.dataDir, 'snapshots')}  (POST /_emulator/snapshot {name})`,
    ];
    if (values.seed === 'demo')
      lines.push(`  demo tenant    "demo", client_id ${settings.demoClientId} (secret: EMULATOR_DEMO_CLIENT_SECRET)`);
    ctx.stdout.write(`${lines.join('\n')}\n`);

    const signal = await ctx.stopSignal;
    await server.close();
    ctx.stdout.write(`WMS emulator stopped (${signal})\n`);
    return 0;
  },
};
