import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/demo/scenario.js';
import { startDemoStack, type DemoStack } from '../../src/demo/stack.js';
import { DEMO_TENANT } from '../../src/emulator/index.js';
import { loadConfig } from '../../src/lib/config.js';
import { silentLogger } from '../../src/lib/logger.js';
import { tempDir } from '../support/tmp.js';

// The whole loop on one machine, as `wms-sync start` + `wms-sync demo` run it: the emulator and the
// service over real HTTP, SQLite and the embedded queue. Every quantity is asserted by the
// scenario's own checks (src/demo/steps.ts); a failed check names itself here.
describe('demo scenario on SQLite (wms-sync start wiring)', () => {
  const tmp = tempDir('scenario');
  let stack: DemoStack;

  beforeAll(async () => {
    const config = loadConfig({ DATA_DIR: tmp.dir, PORT: '0', EMULATOR_PORT: '0', LOG_LEVEL: 'silent', QUEUE_POLL_INTERVAL_MS: '200', RECONCILE_SETTLE_SECONDS: '1' });
    stack = await startDemoStack(config, { logger: silentLogger(), emulatorInMemory: true, queueTuning: { sqlite: { maintenanceIntervalMs: 200, cronIntervalMs: 200 } } });
  });
  afterAll(async () => {
    await stack.close();
    tmp.remove();
  });

  it('loads the ERP sample data through the ERP API', () => {
    expect(stack.loaded.map((l) => [l.kind, l.queued + l.unchanged, l.invalid])).toEqual([
      ['products', 20, 0],
      ['delivery-points', 8, 0],
      ['documents', 10, 0],
    ]);
  });

  it('every step reaches the ERP feed with the expected quantities, and reconciliation finds exactly the lost movement', async () => {
    const lines: string[] = [];
    const result = await runScenario(
      { serviceUrl: stack.serviceUrl, emulatorUrl: stack.emulator.url, tenant: DEMO_TENANT, erpToken: stack.secrets.erpApiToken },
      (l) => lines.push(l),
      { timeoutMs: 20_000 },
    );
    expect(result.failures, lines.join('\n')).toEqual([]);
    // Every step ran (a thrown step stops the scenario) and no check failed.
    expect(lines.filter((l) => /^\n\d\. /.test(l))).toHaveLength(5);
    expect(lines.some((l) => l.includes('✘'))).toBe(false);
  });
});
