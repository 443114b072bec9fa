import { type Config, loadConfig } from '../../src/lib/config.js';

/**
 * The configuration of an in-process demo stack in a test (`startDemoStack`): free ports, no log,
 * fast polls and settling, and no reconciliation schedule (a test asks for its own runs; the
 * hourly default fired when a test crossed the top of an hour, a second run seen under
 * test:stress). `env` adds to or overrides it.
 */
export function demoTestConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    EMULATOR_PORT: '0',
    LOG_LEVEL: 'silent',
    QUEUE_POLL_INTERVAL_MS: '200',
    RECONCILE_SETTLE_SECONDS: '1',
    RECONCILE_CRON: 'off',
    ...env,
  });
}
