import { beforeEach, describe, expect, it } from 'vitest';
import { LEASE_EXPIRED, type Queue, type QueueEvents } from '../../src/queue/types.js';
import { until } from '../support/wait.js';
import { nextEvent } from './events.js';
import { type QueueFixture, useFixture } from './queue.contract.js';

/** The lease every queue of these suites is opened with (short, so a dead worker's job comes back fast). */
export const TEST_LEASE_SECONDS = 2;

/** `failed` events of `queue` for `name`, as they come. */
function failures(queue: Queue, name: string): QueueEvents['failed'][0][] {
  const seen: QueueEvents['failed'][0][] = [];
  queue.on('failed', (e) => {
    if (e.name === name) seen.push(e);
  });
  return seen;
}

/**
 * Leases, on both adapters: a worker renews the leases of the jobs it runs (its heartbeat), so a
 * job runs again one lease after its worker died (not `expireInSeconds` later, nor after a retry
 * delay), a live worker keeps its job however long it runs, and a job that runs past
 * `expireInSeconds` is taken as stuck. The queues are opened with `TEST_LEASE_SECONDS`.
 */
export function leaseContract(label: string, open: () => Promise<QueueFixture>): void {
  describe(`queue leases: ${label}`, () => {
    const { f: fixture, qname } = useFixture(open);
    let f: QueueFixture;
    beforeEach(() => {
      f = fixture();
    });

    /** A peer process takes the job and is killed (it stops renewing); resolves once it is dead. */
    const killedWorker = async (name: string, send: () => Promise<string | null>): Promise<string> => {
      const peer = await f.openPeer();
      await peer.queue.start();
      let claimed!: () => void;
      const running = new Promise<void>((r) => (claimed = r));
      await peer.queue.work(name, { pollIntervalMs: 100 }, () => {
        claimed();
        return new Promise<void>(() => undefined);
      });
      const id = (await send())!;
      await running;
      await peer.queue.stop({ graceMs: 0 });
      await peer.close();
      return id;
    };

    it('runs the job of a worker that died again one lease later, at once and not expireInSeconds later', async () => {
      const name = qname('died');
      // A retry delay of an hour and a run time of an hour: only the lease can bring it back soon.
      const id = await killedWorker(name, () =>
        f.queue.send(name, { v: 1 }, { expireInSeconds: 3600, retryLimit: 2, retryDelay: 3600, retryBackoff: false }),
      );
      const failed = failures(f.queue, name);
      const retries: number[] = [];
      await f.queue.work(name, { pollIntervalMs: 100 }, async (job) => {
        retries.push(job.retryCount);
      });
      await nextEvent(f.queue, 'completed', (e) => e.id === id, 15_000);
      expect(retries).toEqual([1]);
      expect(failed).toMatchObject([{ id, dead: false, error: { message: LEASE_EXPIRED } }]);
    });

    it('a live worker keeps its job while it runs longer than the lease: the job runs once', async () => {
      const name = qname('alive');
      // Another process works the same queue and looks for expired leases: it must find none.
      const peer = await f.openPeer();
      await peer.queue.start();
      const runs: string[] = [];
      const handler = (who: string) => async () => {
        runs.push(who);
        const started = Date.now();
        // Run for well over two leases (the only way to outlive one is to be there that long).
        await until(() => Date.now() - started > 2.5 * TEST_LEASE_SECONDS * 1000, { timeoutMs: 30_000, everyMs: 100 });
      };
      await peer.queue.work(name, { pollIntervalMs: 100 }, handler('peer'));
      await f.queue.work(name, { pollIntervalMs: 100 }, handler('main'));
      const failedHere = failures(f.queue, name);
      const failedThere = failures(peer.queue, name);
      const id = (await f.queue.send(name, {}, { expireInSeconds: 3600, retryLimit: 2, retryDelay: 0 }))!;
      const done = await Promise.race([
        nextEvent(f.queue, 'completed', (e) => e.id === id, 20_000),
        nextEvent(peer.queue, 'completed', (e) => e.id === id, 20_000),
      ]);
      expect(done.id).toBe(id);
      expect(runs).toHaveLength(1);
      expect([...failedHere, ...failedThere]).toEqual([]);
      expect((await f.queue.getJob(name, id))?.state).toBe('completed');
      await peer.queue.stop({ graceMs: 1000 });
      await peer.close();
    });

    it('takes a job that runs past expireInSeconds as stuck and runs it again', async () => {
      const name = qname('stuck');
      let stuck!: () => void;
      const claimed = new Promise<void>((r) => (stuck = r));
      // This worker is alive (its heartbeat goes on) but its handler never ends.
      await f.queue.work(name, { pollIntervalMs: 100 }, () => {
        stuck();
        return new Promise<void>(() => undefined);
      });
      const id = (await f.queue.send(
        name,
        { v: 1 },
        { expireInSeconds: 1, retryLimit: 2, retryDelay: 0, retryBackoff: false },
      ))!;
      await claimed;
      const peer = await f.openPeer();
      await peer.queue.start();
      const retries: number[] = [];
      await peer.queue.work(name, { pollIntervalMs: 100 }, async (job) => {
        retries.push(job.retryCount);
      });
      await nextEvent(peer.queue, 'completed', (e) => e.id === id, 20_000);
      expect(retries).toEqual([1]);
      await peer.queue.stop({ graceMs: 1000 });
      await peer.close();
    });

    it('reports a job whose worker was killed on its last attempt as dead once its lease expires', async () => {
      const name = qname('lease-dead');
      const id = await killedWorker(name, () => f.queue.send(name, { v: 1 }, { expireInSeconds: 3600, retryLimit: 0 }));
      // Listeners of dead jobs (inbound events marked failed, a reconciliation run ended) rely on this
      // event, from a process working the queue.
      const dead = nextEvent(f.queue, 'failed', (e) => e.name === name && e.dead, 20_000);
      await f.queue.work(name, { pollIntervalMs: 100 }, async () => undefined);
      expect(await dead).toMatchObject({ name, id, dead: true });
      const info = (await f.queue.getJob(name, id))!;
      expect(info.state).toBe('failed');
      expect(info.output).toMatchObject({ message: LEASE_EXPIRED });
      expect((await f.queue.listDead({ name })).map((j) => j.id)).toEqual([id]);
    });
  });
}
