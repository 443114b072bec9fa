import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossQueue } from '../../src/queue/pgboss.js';
import { applySchedule } from '../../src/reconcile/jobs.js';
import { SCHEDULE_QUEUE } from '../../src/reconcile/queue.js';
import type { ReconciliationRun } from '../../src/store/index.js';
import { erp } from '../push/support.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';
import { RECONCILE_TEST_ENV, ReconcileHarness } from './harness.js';

const STOCK = '/api/external/v1/product/stock';

/** Never two runs of one connection at once, whoever asks; the cron asks for every connection. */
export function singletonSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`one run at a time per connection (${dialect})`, () => {
    let h: ReconcileHarness;

    beforeAll(async () => {
      h = await ReconcileHarness.start('reconcile-singleton', dialect, { WORKER_CONCURRENCY: '4' });
      await h.product('ONE');
      await h.receive([{ product: 'ONE', quantity: 3 }]);
      await h.settled();
    });
    afterAll(async () => {
      await h.close();
    });

    it('concurrent triggers while a run is going on queue exactly one more run, which starts after the first ends', async () => {
      // The first run's stock request is held, so the others arrive while it runs, however slowly.
      h.proxy.inject({ method: 'POST', path: STOCK, hold: true });
      const first = await erp(h.svc.app, h.acme, 'POST', '/erp/v1/reconciliations');
      expect(first.status).toBe(202);
      await until(async () => (await h.store.reconciliation.getRun(first.body.id))?.status === 'running', {
        message: 'first run running',
      });

      const replies = await Promise.all(
        Array.from({ length: 6 }, () => erp(h.svc.app, h.acme, 'POST', '/erp/v1/reconciliations')),
      );
      const queued = replies.filter((r) => r.status === 202);
      expect(queued).toHaveLength(1);
      const second = queued[0]!.body.id as number;
      expect(second).not.toBe(first.body.id);
      // The others joined the run already waiting.
      expect(replies.map((r) => r.body)).toEqual(Array.from({ length: 6 }, () => ({ id: second, status: 'queued' })));
      expect((await h.store.reconciliation.getRun(first.body.id))?.status).toBe('running');

      h.proxy.release();
      const a = await h.finished(first.body.id);
      const b = await h.finished(second);
      expect([a.status, b.status]).toEqual(['completed', 'completed']);
      expect(b.startedAt!.getTime()).toBeGreaterThanOrEqual(a.finishedAt!.getTime());
    });
  });

  describe(`scheduled runs (${dialect})`, () => {
    let wms: RunningEmulator;
    let svc: TestService;

    beforeAll(async () => {
      wms = await startEmulator();
      const connections = [
        wmsConnection('acme', wms.url, await wms.tenant('acme')),
        wmsConnection('beta', wms.url, await wms.tenant('beta')),
      ];
      // Every second (6 fields): both queue adapters take seconds.
      svc = await startTestService({
        label: 'reconcile-cron',
        dialect,
        connections,
        worker: true,
        env: { ...RECONCILE_TEST_ENV, RECONCILE_CRON: '* * * * * *' },
      });
    });
    afterAll(async () => {
      await svc.close();
      await wms.close();
    });

    const scheduled = async (connection: string): Promise<ReconciliationRun | undefined> =>
      (await svc.deps.store.reconciliation.listRuns(connection, { limit: 20 })).find(
        (r) => r.trigger === 'schedule' && r.status === 'completed',
      );
    const schedules = async (): Promise<{ name: string; cron: string }[]> => {
      const { queue, store } = svc.deps;
      if (queue instanceof PgBossQueue)
        return (await queue.boss.getSchedules()).map((s) => ({ name: s.name, cron: s.cron }));
      if (store.dialect !== 'sqlite') throw new Error('unexpected store');
      return store.database.raw.prepare('SELECT name, cron FROM job_schedules').all() as {
        name: string;
        cron: string;
      }[];
    };

    it('the cron asks for a run of every connection, and RECONCILE_CRON=off removes the schedule', async () => {
      const runs = await until(
        async () => {
          const found = await Promise.all(['acme', 'beta'].map(scheduled));
          return found.every(Boolean) ? found : undefined;
        },
        { timeoutMs: 15_000, message: 'a scheduled run of each connection' },
      );
      expect(runs.map((r) => [r!.connection, r!.trigger, r!.status])).toEqual([
        ['acme', 'schedule', 'completed'],
        ['beta', 'schedule', 'completed'],
      ]);
      expect(await schedules()).toContainEqual({ name: SCHEDULE_QUEUE, cron: '* * * * * *' });
      await applySchedule(svc.deps.queue, null);
      expect((await schedules()).filter((s) => s.name === SCHEDULE_QUEUE)).toEqual([]);
    });
  });
}
