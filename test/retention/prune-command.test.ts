import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { PRUNE_QUEUE, retentionJobs } from '../../src/retention/jobs.js';
import { nextEvent } from '../queue/events.js';
import { startTestService } from '../support/service.js';
import { tempDir } from '../support/tmp.js';

/** `wms-sync …` in this process (the command's own code; no child process to start). */
async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (to: string[]) => new Writable({ write: (c, _e, done) => (to.push(String(c)), done()) });
  const code = await main(args, {
    env,
    stdout: sink(out),
    stderr: sink(err),
    stopSignal: new Promise(() => undefined),
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const STEPS = [
  'inbound-bodies',
  'rejected-bodies',
  'dedupe-keys',
  'feed-entries',
  'stock-ledger',
  'reconciliation-runs',
  'synced-documents',
  'erp-deliveries',
  'audit-entries',
  'notifications',
];

describe('wms-sync prune', () => {
  const tmp = tempDir('prune-cli');
  afterAll(() => tmp.remove());

  it('--dry-run prints every step with its retention and what would go; --json one object per step', async () => {
    const env = { DATA_DIR: join(tmp.dir, 'a'), INBOUND_RETENTION_DAYS: '30' };
    const dry = await runCli(['prune', '--dry-run'], env);
    expect(dry.code).toBe(0);
    const lines = dry.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^STEP\s+KEPT\s+OLDER THAN\s+WOULD GO$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(STEPS);
    expect(lines[1]).toMatch(/^inbound-bodies\s+30 d\s+\d{4}-\d\d-\d\dT[\d:.]+Z\s+bodies 0$/);

    const json = await runCli(['prune', '--json'], env);
    expect(json.code).toBe(0);
    const objects = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { step: string; setting: string; days: number; dryRun: boolean });
    expect(objects.map((o) => o.step)).toEqual(STEPS);
    expect(objects[0]).toMatchObject({ setting: 'INBOUND_RETENTION_DAYS', days: 30, dryRun: false });
  });

  it('refuses an unknown option (exit 2) and a bad setting (exit 1, naming it)', async () => {
    expect((await runCli(['prune', '--everything'], { DATA_DIR: join(tmp.dir, 'b') })).code).toBe(2);
    const bad = await runCli(['prune'], { DATA_DIR: join(tmp.dir, 'b'), LEDGER_RETENTION_DAYS: '0' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('LEDGER_RETENTION_DAYS');
  });
});

describe('the scheduled prune', () => {
  it('runs on PRUNE_CRON from the worker', async () => {
    const svc = await startTestService({
      label: 'prune-cron',
      env: { PRUNE_CRON: '* * * * * *' },
      worker: [retentionJobs],
    });
    try {
      await nextEvent(svc.deps.queue, 'completed', (e) => e.name === PRUNE_QUEUE);
    } finally {
      await svc.close();
    }
  });
});
