import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/demo/scenario.js';
import { type DemoStack, startDemoStack } from '../../src/demo/stack.js';
import { scenarioCodes } from '../../src/demo/steps.js';
import { DEMO_TENANT } from '../../src/emulator/index.js';
import { silentLogger } from '../../src/lib/logger.js';
import { demoTestConfig } from '../support/demo-config.js';
import { tempDir } from '../support/tmp.js';
import { expectErpRefusal } from './erp-refusal-outcome.js';
import { expectScenarioFeed, expectScenarioLedger, expectScenarioWms, readFeed } from './outcome.js';

// The whole loop on one machine, as `wms-sync start` + `wms-sync demo` run it: the emulator and the
// service over real HTTP, SQLite and the embedded queue. The scenario drives both sides; what it
// must leave behind (the ERP feed, the ledger, the emulator's documents, stock and webhook log)
// is asserted here, by test/demo/outcome.ts, not by the scenario's own checks.
describe('demo scenario on SQLite (wms-sync start wiring)', () => {
  const tmp = tempDir('scenario');
  let stack: DemoStack;

  beforeAll(async () => {
    const config = demoTestConfig(tmp.dir);
    stack = await startDemoStack(config, {
      logger: silentLogger(),
      emulatorInMemory: true,
      queueTuning: { sqlite: { maintenanceIntervalMs: 200, cronIntervalMs: 200 } },
      sampleErp: { port: 0 },
    });
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
    const codes = scenarioCodes('SQLITE');
    const after = (await readFeed(stack.serviceUrl, stack.secrets.erpApiToken)).at(-1)?.id ?? 0;
    const result = await runScenario(
      {
        serviceUrl: stack.serviceUrl,
        emulatorUrl: stack.emulator.url,
        tenant: DEMO_TENANT,
        erpToken: stack.secrets.erpApiToken,
        erpUrl: stack.sampleErp!.url,
      },
      (l) => lines.push(l),
      { timeoutMs: 20_000, run: 'SQLITE' },
    );
    expect(result.failures, lines.join('\n')).toEqual([]);

    expectScenarioFeed(await readFeed(stack.serviceUrl, stack.secrets.erpApiToken, after), codes, { reconciled: true });
    expectScenarioLedger(await stack.service.deps.store.ledger.totals('demo', {}), codes);
    await expectScenarioWms(stack.emulator.url, DEMO_TENANT, stack.demoClient, codes);
    const runs = await stack.service.deps.store.reconciliation.listRuns('demo', { limit: 10 });
    expect(runs.map((r) => [r.status, r.driftCount, r.notFoundCount])).toEqual([['completed', 1, 0]]);
    // The refused reception: refused once (kept rejected_by_erp), processed after the re-send.
    const refused = await expectErpRefusal(stack.emulator.url, stack.sampleErp!.url, codes);
    expect(await stack.service.deps.store.inbox.findByKey('demo', `reception-close:${refused}`)).toMatchObject({
      status: 'processed',
      duplicates: 1,
    });
  });
});
