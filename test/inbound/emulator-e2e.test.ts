import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoHarness } from '../../src/demo/harness.js';
import { type DemoStack, startDemoStack } from '../../src/demo/stack.js';
import { clientReturn, expedition, purchaseOrder, regularizations, scenarioCodes } from '../../src/demo/steps.js';
import { DEMO_TENANT } from '../../src/emulator/index.js';
import { loadConfig } from '../../src/lib/config.js';
import { silentLogger } from '../../src/lib/logger.js';
import { expectScenarioFeed, expectScenarioLedger, expectScenarioWms, readFeed } from '../demo/outcome.js';
import { tempDir } from '../support/tmp.js';

// End to end with the emulator over real HTTP: the emulator closes a reception, a shipment and a
// client return and regularizes stock (the demo's steps drive it); the feed entries reach the ERP
// feed with the right quantities, the ledger holds the movements that arrived, and the emulator
// holds what the warehouse did. Those outcomes are asserted here (test/demo/outcome.ts), each
// step's own report only as a first pointer to what went wrong.
describe('webhooks from the emulator become feed entries and ledger movements', () => {
  const tmp = tempDir('inbound-e2e');
  let stack: DemoStack;
  let harness: DemoHarness;
  const codes = scenarioCodes('E2E');
  const lines: string[] = [];
  let feedStart = 0;

  beforeAll(async () => {
    const config = loadConfig({
      DATA_DIR: tmp.dir,
      PORT: '0',
      EMULATOR_PORT: '0',
      LOG_LEVEL: 'silent',
      QUEUE_POLL_INTERVAL_MS: '200',
    });
    stack = await startDemoStack(config, { logger: silentLogger(), emulatorInMemory: true });
    harness = new DemoHarness(
      {
        serviceUrl: stack.serviceUrl,
        emulatorUrl: stack.emulator.url,
        tenant: DEMO_TENANT,
        erpToken: stack.secrets.erpApiToken,
      },
      (l) => lines.push(l),
      20_000,
    );
    await harness.skipExistingEvents();
    feedStart = (await readFeed(stack.serviceUrl, stack.secrets.erpApiToken)).at(-1)?.id ?? 0;
  });
  afterAll(async () => {
    await stack.close();
    tmp.remove();
  });

  it.each([
    ['a purchase order reception with differences', purchaseOrder],
    ['a client expedition with two packings', expedition],
    ['a client return', clientReturn],
    ['stock regularizations, one webhook lost', regularizations],
  ])('%s', async (_label, step) => {
    await step(harness, codes);
    expect(harness.failures, lines.join('\n')).toEqual([]);
  });

  it('the ERP feed holds one feed entry per webhook that arrived, with its figures', async () => {
    expectScenarioFeed(await readFeed(stack.serviceUrl, stack.secrets.erpApiToken, feedStart), codes, {
      reconciled: false,
    });
  });

  it('the ledger holds every movement that arrived, and not the lost one', async () => {
    // The −4 whose webhook was lost is unknown here: 60 − 20 + 2 rice.
    expectScenarioLedger(await stack.service.deps.store.ledger.totals('demo', {}), codes);
  });

  it("the emulator's documents, stock and webhook log say what the warehouse did", async () => {
    await expectScenarioWms(stack.emulator.url, DEMO_TENANT, stack.demoClient, codes);
  });
});
