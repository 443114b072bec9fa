import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildService, spawnService } from '../inbound/child-service.js';
import { until } from '../support/wait.js';
import { PrivateCluster } from './pg-cluster.js';
import { CONNECTION, Traffic } from './traffic.js';

const RESUME_DEADLINE_MS = 15_000;

/**
 * `wms-sync serve` on a private PostgreSQL cluster, receiving webhooks from 8 senders while the
 * cluster is stopped (`-m fast`) for a few seconds and started again.
 */
describe('PostgreSQL stopped and started under webhook traffic', () => {
  let cluster: PrivateCluster;
  let child: ChildService | undefined;

  beforeAll(async () => {
    cluster = await PrivateCluster.create();
  });
  afterAll(async () => {
    await child?.kill();
    cluster?.remove();
  });

  it('answers 503 while it is down, never 500, lives, resumes within 15 s, and loses nothing', async () => {
    child = await spawnService({ ...CONNECTION, DATABASE_URL: cluster.url }, { timeoutMs: 60_000 });
    const exited: { code: number | null }[] = [];
    child.process.once('exit', (code) => exited.push({ code }));
    const traffic = new Traffic(child.url, 8, 'PG');
    await until(() => traffic.acked.size >= 200, { timeoutMs: 60_000, message: '200 acknowledged before the stop' });

    const stoppedAt = Date.now();
    cluster.stop();
    await until(() => traffic.refusedSince(stoppedAt) >= 50, {
      timeoutMs: 30_000,
      message: `webhooks refused while down (answers so far: ${JSON.stringify(Object.fromEntries(traffic.statuses))})`,
    });
    const downUntil = Date.now() + 3_000;
    await until(() => Date.now() >= downUntil, { timeoutMs: 10_000, everyMs: 100 });
    cluster.start();
    const startedAt = Date.now();
    await until(() => traffic.firstAckAfter(startedAt), {
      timeoutMs: RESUME_DEADLINE_MS + 5_000,
      message: 'acknowledgements resume',
    });
    const resumeMs = traffic.firstAckAfter(startedAt)! - startedAt;
    const ackedAfter = traffic.acked.size;
    await until(() => traffic.acked.size >= ackedAfter + 100, { timeoutMs: 30_000, message: '100 more acknowledged' });
    await traffic.stop();

    expect((await fetch(`${child.url}/healthz`)).status).toBe(200);
    expect(exited).toEqual([]);
    expect(traffic.statuses.get(500) ?? 0).toBe(0);
    expect(traffic.statuses.get(0) ?? 0).toBe(0);
    expect(resumeMs).toBeLessThanOrEqual(RESUME_DEADLINE_MS);

    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      await until(
        async () => {
          const { rows } = await client.query<{ dedupe_key: string }>(
            `SELECT dedupe_key FROM inbound_events WHERE connection = 'acme' AND status = 'processed'`,
          );
          const processed = new Set(rows.map((r) => r.dedupe_key));
          return [...traffic.acked].every((code) => processed.has(`reception-close:${code}`));
        },
        { timeoutMs: 90_000, everyMs: 500, message: 'every acknowledged event processed' },
      ).catch(async (err: Error) => {
        const { rows: events } = await client.query(
          `SELECT dedupe_key, status, attempts, error FROM inbound_events WHERE connection = 'acme' AND status <> 'processed' LIMIT 5`,
        );
        const { rows: jobs } = await client.query(
          `SELECT name, state, retry_count, retry_limit, start_after - now() AS due_in, output FROM pgboss.job WHERE state NOT IN ('completed') LIMIT 10`,
        );
        const { rows: total } = await client.query(
          `SELECT count(*)::int AS n FROM inbound_events WHERE connection = 'acme'`,
        );
        throw new Error(
          `${err.message}: ${traffic.acked.size} acked, ${JSON.stringify(total)} stored; unprocessed ${JSON.stringify(events)}; jobs ${JSON.stringify(jobs)}`,
        );
      });
    } finally {
      await client.end();
    }
    process.stdout.write(
      `[faults] postgres restart: ${traffic.acked.size} acknowledged, answers ${JSON.stringify(Object.fromEntries(traffic.statuses))}, resumed ${resumeMs} ms after the start\n`,
    );
  });
});
