/**
 * One wms-sync run of `bench:push`: items taken in through the intake (`loadItems`, what the ERP
 * API and `wms-sync push` load call) and pushed by the worker, either in the bench process
 * (openDeps + startWorkers: the worker of `wms-sync serve`) or by `wms-sync worker` processes
 * (`node bin/wms-sync.js worker`) on Postgres. Timed from the start of the intake to the last
 * record synced.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { loadConfig } from '../src/lib/config.js';
import { connectionInputSchema, toConnectionConfig } from '../src/lib/connections.js';
import { silentLogger } from '../src/lib/logger.js';
import { openDeps } from '../src/main.js';
import { followSync, loadItems } from '../src/push/bulk.js';
import type { IntakeKind } from '../src/push/entities.js';
import { wmsPushJobs } from '../src/push/jobs.js';
import { startWorkers } from '../src/worker.js';
import { tempDir } from '../test/support/tmp.js';
import type { Wms } from './push-wms.js';

export interface RunOptions {
  wms: Wms;
  creds: { clientId: string; clientSecret: string };
  items: [IntakeKind, unknown[]][];
  databaseUrl?: string | undefined;
  /** `wms-sync worker` processes; 0: the worker runs in the bench process. */
  processes: number;
  env?: Record<string, string>;
}

export interface RunResult {
  seconds: number;
  items: number;
  synced: number;
  failed: number;
  /** The connection's limit at the end (in-process client, or the shared one the worker processes left). */
  limit?: number | undefined;
}

const BASE_ENV = {
  LOG_LEVEL: 'silent',
  WORKER_CONCURRENCY: '4',
  WORKER_BATCH_SIZE: '50',
  DATABASE_POOL_SIZE: '10',
};

export async function runWmsSync(o: RunOptions): Promise<RunResult> {
  const tmp = tempDir('bench-push');
  const schema = `bench_push_${process.pid}_${Date.now() % 1_000_000}`;
  const connectionEnv = {
    CONNECTION_NAME: 'bench',
    WMS_BASE_URL: o.wms.url,
    WMS_CLIENT_ID: o.creds.clientId,
    WMS_CLIENT_SECRET: o.creds.clientSecret,
    WEBHOOK_USERNAME: 'wms',
    WEBHOOK_PASSWORD: 'bench-password',
    ERP_API_TOKEN: 'bench-erp-token-0123456789',
  };
  const env: Record<string, string> = {
    ...BASE_ENV,
    DATA_DIR: tmp.dir,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl, DATABASE_SCHEMA: schema } : {}),
    ...o.env,
  };
  if (o.databaseUrl) await sql(o.databaseUrl, `CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const connection = toConnectionConfig(
    connectionInputSchema.parse({
      name: 'bench',
      wmsBaseUrl: o.wms.url,
      wmsClientId: o.creds.clientId,
      wmsClientSecret: o.creds.clientSecret,
      webhookUsername: 'wms',
      webhookPassword: 'bench-password',
      erpApiToken: 'bench-erp-token-0123456789',
    }),
  );
  const deps = await openDeps({ ...loadConfig(env), connections: [connection] }, { logger: silentLogger() });
  const children: ChildProcess[] = [];
  try {
    if (o.processes === 0) await startWorkers(deps, [wmsPushJobs]);
    else
      for (let i = 0; i < o.processes; i++)
        children.push(await startWorker({ ...process.env, ...env, ...connectionEnv, LOG_LEVEL: 'info' }));
    const started = performance.now();
    const ids: number[] = [];
    for (const [kind, list] of o.items) {
      const load = await loadItems(
        deps,
        'bench',
        kind,
        list.map((value, i) => ({ source: `${kind} ${i}`, value })),
      );
      if (load.invalid.length > 0) throw new Error(`${kind}: ${JSON.stringify(load.invalid[0])}`);
      ids.push(...load.recordIds);
    }
    if (process.env.BENCH_TRACE)
      console.log(`   intake of ${ids.length} items done at t=${((performance.now() - started) / 1000).toFixed(2)}s`);
    const limiter = o.processes === 0 ? deps.wms.get(connection).limiter : undefined;
    let ticks = 0;
    // BENCH_TRACE=1 with worker processes: the deployment's shared limit and each holder's demand, as they move.
    const traceClient =
      process.env.BENCH_TRACE && o.processes > 0 && o.databaseUrl
        ? new pg.Client({ connectionString: o.databaseUrl })
        : undefined;
    // A trace is a look, not the measure: a connection it loses never stops the run.
    traceClient?.on('error', () => {});
    await traceClient?.connect();
    let tracing: Promise<unknown> = Promise.resolve();
    // The run's store is fresh, so its counts by state are the run's: read from an index, not by
    // looking up every id (21 ms a look for 16,000 ids on Postgres, in the database the pushes use).
    const runCounts = { store: { pushes: { summarize: async () => (await deps.store.pushes.stateSummary()).counts } } };
    const following = followSync(runCounts, ids, {
      // Each look reads the state of every id, in this process, beside the worker it measures
      // (7.7 % of its CPU at one look per 50 ms with 12,000 ids): a look per 250 ms until the last
      // 2 % are pending, then per 50 ms, so the end is still seen within 50 ms.
      intervalMs: (c) => (c.pending > ids.length / 50 ? 250 : 50),
      onTick: (c) => {
        if (traceClient && ++ticks % 2 === 0) {
          tracing = traceClient
            .query<{ state: string; h: string }>(
              `SELECT state, (SELECT string_agg(demand::text, ',') FROM ${schema}.wms_limit_holders) AS h FROM ${schema}.wms_limits`,
            )
            .then(({ rows }) => {
              const st = rows[0]
                ? (JSON.parse(rows[0].state) as {
                    limit: number;
                    slowStart: boolean;
                    recentRtt: number;
                    decreasedAt: number;
                  })
                : undefined;
              console.log(
                `   t=${((performance.now() - started) / 1000).toFixed(1)}s synced=${c.synced} shared limit=${st?.limit.toFixed(1)} slowStart=${st?.slowStart} rtt=${st?.recentRtt?.toFixed(0)} demand=${rows[0]?.h}`,
              );
            })
            .catch(() => {});
        }
        // BENCH_TRACE=1: the limit as it moves (in-process runs).
        if (process.env.BENCH_TRACE && limiter && ++ticks % 2 === 0) {
          const st = limiter.state;
          console.log(
            `   t=${((performance.now() - started) / 1000).toFixed(1)}s synced=${c.synced} limit=${limiter.limit} active=${limiter.active} waiting=${limiter.waiting} rtt=${st.recentRtt?.toFixed(0)}/${(st.minRtt.current ?? st.minRtt.previous)?.toFixed(0)} slowStart=${st.slowStart} pace=${st.pace ? st.pace.perSecond.toFixed(0) : '-'}`,
          );
        }
      },
    })
      .then((result) => ({ result, seconds: (performance.now() - started) / 1000 }))
      .finally(async () => {
        await tracing;
        await traceClient?.end().catch(() => {});
      });
    const { result: final, seconds } = await following;
    let limit = o.processes === 0 ? deps.wms.get(connection).limiter.limit : undefined;
    if (o.processes > 0 && o.databaseUrl) {
      // The deployment's shared limit, as the worker processes left it.
      const client = new pg.Client({ connectionString: o.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ state: string }>(
          `SELECT state FROM ${schema}.wms_limits WHERE connection = 'bench'`,
        );
        if (rows[0]) limit = Math.floor((JSON.parse(rows[0].state) as { limit: number }).limit);
      } finally {
        await client.end();
      }
    }
    return { seconds, items: ids.length, synced: final.synced, failed: final.failed, limit };
  } finally {
    await Promise.all(children.map((c) => stopChild(c)));
    await deps.queue.stop({ graceMs: 2000 });
    await deps.wms.close();
    await deps.store.close();
    if (o.databaseUrl)
      await sql(o.databaseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    tmp.remove();
  }
}

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** `node bin/wms-sync.js worker`, ready once it logs that it runs. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const bin = join(import.meta.dirname, '..', 'bin', 'wms-sync.js');
  const child = spawn(process.execPath, [bin, 'worker'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.includes('worker running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return child;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
