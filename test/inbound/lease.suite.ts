import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRegistration } from '../../src/deps.js';
import { inboundJobs } from '../../src/inbound/jobs.js';
import { inboundMetrics } from '../../src/inbound/metrics.js';
import { processEvent } from '../../src/inbound/process-event.js';
import { INBOUND_QUEUE, type ProcessJobData } from '../../src/inbound/queue.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { postWebhook, uniquePayload } from './support.js';

/**
 * A worker that dies mid-job, never to answer again (a killed process), so the job's lease runs
 * out: before its processing committed, or at the worst moment, after the commit and before the
 * job was marked done.
 */
function dyingWorker(when: 'before commit' | 'after commit', died: Promise<void>): JobRegistration {
  return {
    name: 'dying worker',
    register: async (deps) => {
      await deps.queue.work<ProcessJobData>(INBOUND_QUEUE, { batchSize: 1 }, async (job) => {
        if (when === 'after commit') {
          for (const id of job.data.eventIds)
            await processEvent({ store: deps.store, clock: deps.clock, metrics: inboundMetrics(deps.metrics) }, id);
        }
        await died;
      });
    },
  };
}

export function leaseSuite(dialect: 'sqlite' | 'postgres'): void {
  for (const when of ['before commit', 'after commit'] as const) leaseCase(dialect, when);
  lastAttemptCase(dialect);
}

/** The worker dies on the job's last attempt: no retry is left, so its events must show failed. */
function lastAttemptCase(dialect: 'sqlite' | 'postgres'): void {
  describe(`a worker killed on the job's last attempt (${dialect})`, () => {
    let svc: TestService;
    let release!: () => void;
    const died = new Promise<void>((resolve) => (release = resolve));
    const acme = testConnection('acme');

    beforeAll(async () => {
      svc = await startTestService({
        label: 'lease-last',
        dialect,
        connections: [acme],
        env: { INBOUND_LEASE_SECONDS: '1', INBOUND_RETRY_LIMIT: '0', QUEUE_POLL_INTERVAL_MS: '50' },
        worker: [dyingWorker('before commit', died)],
      });
    });
    afterAll(async () => {
      release();
      await svc.close();
    });

    it('marks its events failed once the lease expires, for the operator to retry', async () => {
      const payload = uniquePayload('reception-close');
      expect((await postWebhook(svc.app, acme, 'reception-close', payload)).status).toBe(200);
      const key = `reception-close:${payload.closingDocumentCode as string}`;
      await until(async () => (await svc.deps.queue.counts(INBOUND_QUEUE)).active === 1, {
        message: 'the dying worker holds the job',
      });
      // A healthy process joins (its worker and its listener of dead jobs).
      await inboundJobs.register(svc.deps);
      const failed = await until(
        async () => {
          const e = await svc.deps.store.inbox.findByKey('acme', key);
          return e?.status === 'failed' ? e : undefined;
        },
        { timeoutMs: 15_000, message: 'the event marked failed' },
      );
      expect(failed.error).toMatch(/lease expired/);
      expect((await svc.deps.queue.counts(INBOUND_QUEUE)).failed).toBe(1);
    });
  });
}

function leaseCase(dialect: 'sqlite' | 'postgres', when: 'before commit' | 'after commit'): void {
  describe(`a worker killed mid-job, ${when} (${dialect})`, () => {
    let svc: TestService;
    let release!: () => void;
    const died = new Promise<void>((resolve) => (release = resolve));
    const acme = testConnection('acme');

    beforeAll(async () => {
      svc = await startTestService({
        label: 'lease',
        dialect,
        connections: [acme],
        env: { INBOUND_LEASE_SECONDS: '1', INBOUND_RETRY_DELAY_SECONDS: '0', QUEUE_POLL_INTERVAL_MS: '50' },
        worker: [dyingWorker(when, died)],
      });
    });
    afterAll(async () => {
      release();
      await svc.close();
    });

    it('its lease expires, another worker runs the job again, and there is exactly one feed entry', async () => {
      const payload = uniquePayload('reception-close');
      expect((await postWebhook(svc.app, acme, 'reception-close', payload)).status).toBe(200);
      const key = `reception-close:${payload.closingDocumentCode as string}`;
      // The dying worker holds the job (and, after commit, has written its effects).
      const first = await until(async () => {
        const e = await svc.deps.store.inbox.findByKey('acme', key);
        return e?.status === (when === 'after commit' ? 'processed' : 'received') &&
          (await svc.deps.queue.counts(INBOUND_QUEUE)).active === 1
          ? e
          : undefined;
      });
      const feedEntries = async () =>
        (await svc.deps.store.feed.listAfter('acme', 0, 1000)).filter((c) => c.sourceEventId === first.id);
      expect(await feedEntries()).toHaveLength(when === 'after commit' ? 1 : 0);

      // A healthy worker joins; once the lease runs out the job runs again, on it.
      await inboundJobs.register(svc.deps);
      await until(
        async () => {
          const counts = await svc.deps.queue.counts(INBOUND_QUEUE);
          return counts.completed === 1 && counts.active === 0;
        },
        { timeoutMs: 15_000, message: 'expired job completed by the healthy worker' },
      );
      expect(await feedEntries()).toHaveLength(1);
      expect(
        (await svc.deps.store.ledger.list('acme', { limit: 100 })).filter((m) => m.sourceEventId === first.id),
      ).toHaveLength(4);
      expect(await svc.deps.store.inbox.get(first.id)).toMatchObject({ status: 'processed', duplicates: 0 });
    });
  });
}
