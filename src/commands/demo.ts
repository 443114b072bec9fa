import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoSecretsFile, loadOrCreateDemoSecrets } from '../demo/connection.js';
import { UnreachableError } from '../demo/http.js';
import { runScenario } from '../demo/scenario.js';
import { startDemoStack } from '../demo/stack.js';
import { DEMO_TENANT } from '../emulator/index.js';
import { silentLogger } from '../lib/logger.js';
import { configFrom, parse, UsageError, withUsage } from './args.js';
import { DEFAULT_SAMPLE_ERP_PORT, DEMO_SETTLE_SECONDS } from './start.js';
import type { Command } from './types.js';

const help = `Usage: wms-sync demo [--service URL] [--emulator URL] [--erp URL] [--token TOKEN] [--embedded]

Runs the demo scenario against a running \`wms-sync start\` and prints each step with the ERP feed
entries it produced: a purchase order received with a shortage, a surplus and a product not
ordered; a client expedition picked, packed into two packings and dispatched; a client return;
two stock regularizations, the second with its webhook lost; a reconciliation that finds exactly
that loss; a reception the ERP refuses (through the sample ERP \`start\` runs), whose reason the
warehouse operator sees, re-sent and accepted once the ERP is fixed. Exits 0 when every
expectation held, 1 otherwise.

Options:
  --service URL    the service (default http://127.0.0.1:$PORT)
  --emulator URL   the emulator (default http://127.0.0.1:$EMULATOR_PORT)
  --erp URL        the sample ERP (default http://127.0.0.1:${DEFAULT_SAMPLE_ERP_PORT}; when none answers there, the
                   refusal step is skipped)
  --token TOKEN    the demo connection's ERP token (default: read from DATA_DIR/demo-connection.json)
  --embedded       start its own emulator and service (temporary data, free ports), run, stop
  --timeout-ms N   longest wait for one outcome (default 30000)`;

export const demoCommand: Command = {
  name: 'demo',
  help,
  run: (args, ctx) =>
    withUsage(ctx, help, async () => {
      const { values } = parse(args, {
        service: { type: 'string' },
        emulator: { type: 'string' },
        erp: { type: 'string' },
        token: { type: 'string' },
        embedded: { type: 'boolean' },
        'timeout-ms': { type: 'string' },
      });
      for (const option of ['service', 'emulator', 'erp'] as const) {
        const url = values[option];
        if (url !== undefined && !/^https?:\/\/[^/]/.test(url))
          throw new UsageError(`--${option} expects an http(s) URL, got "${url}"`);
      }
      const timeoutMs = values['timeout-ms'] === undefined ? 30_000 : Number(values['timeout-ms']);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1000)
        throw new UsageError('--timeout-ms expects an integer ≥ 1000');
      const out = (line: string) => ctx.stdout.write(`${line}\n`);

      if (values.embedded) {
        const dataDir = mkdtempSync(join(tmpdir(), 'wms-sync-demo-'));
        const config = configFrom(ctx, {
          DATA_DIR: dataDir,
          PORT: '0',
          EMULATOR_PORT: '0',
          DATABASE_URL: '',
          SQLITE_FILE: '',
          RECONCILE_SETTLE_SECONDS: ctx.env.RECONCILE_SETTLE_SECONDS ?? DEMO_SETTLE_SECONDS,
        });
        if (!config) return 1;
        const stack = await startDemoStack(config, {
          logger: silentLogger(),
          emulatorInMemory: true,
          sampleErp: { port: 0 },
        });
        try {
          out(
            `embedded: service ${stack.serviceUrl}, emulator ${stack.emulator.url}, sample ERP ${stack.sampleErp!.url}`,
          );
          const result = await runScenario(
            {
              serviceUrl: stack.serviceUrl,
              emulatorUrl: stack.emulator.url,
              tenant: DEMO_TENANT,
              erpToken: stack.secrets.erpApiToken,
              erpUrl: stack.sampleErp!.url,
            },
            out,
            { timeoutMs },
          );
          return report(result.failures, out);
        } finally {
          await stack.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      }

      const config = configFrom(ctx);
      if (!config) return 1;
      let token = values.token;
      if (!token) {
        if (!existsSync(demoSecretsFile(config.dataDir))) {
          ctx.stderr.write(
            `wms-sync demo: no ${demoSecretsFile(config.dataDir)}: start \`wms-sync start\` first, or pass --token or --embedded\n`,
          );
          return 1;
        }
        token = loadOrCreateDemoSecrets(config.dataDir).erpApiToken;
      }
      const erpUrl = values.erp ?? `http://127.0.0.1:${DEFAULT_SAMPLE_ERP_PORT}`;
      const erpAnswers = await answers(`${erpUrl}/rejections`);
      if (!erpAnswers && values.erp) {
        ctx.stderr.write(`wms-sync demo: no sample ERP answers at ${erpUrl}\n`);
        return 1;
      }
      let result;
      try {
        result = await runScenario(
          {
            serviceUrl: values.service ?? `http://127.0.0.1:${config.port}`,
            emulatorUrl: values.emulator ?? `http://127.0.0.1:${config.emulator.port}`,
            tenant: DEMO_TENANT,
            erpToken: token,
            ...(config.emulator.adminToken ? { adminToken: config.emulator.adminToken } : {}),
            ...(erpAnswers ? { erpUrl } : {}),
          },
          out,
          { timeoutMs },
        );
      } catch (err) {
        if (!(err instanceof UnreachableError)) throw err;
        ctx.stderr.write(
          `wms-sync demo: ${err.message}: is \`wms-sync start\` running there? Point at it with --service URL --emulator URL\n`,
        );
        return 1;
      }
      return report(result.failures, out);
    }),
};

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5000) })).ok;
  } catch {
    return false;
  }
}

function report(failures: string[], out: (line: string) => void): number {
  if (failures.length === 0) {
    out('\nDemo passed: every outcome above reached the ERP feed as expected.');
    return 0;
  }
  out(`\nDemo FAILED: ${failures.length} expectation(s) did not hold:`);
  for (const f of failures) out(`  - ${f}`);
  return 1;
}
