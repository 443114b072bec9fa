import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { dirname } from 'node:path';
import { AlertRecorder } from './alerts/recorder.js';
import { alertsConfigured } from './alerts/targets.js';
import { buildApp, NO_CONNECTION_MESSAGE, type ServiceApp } from './app.js';
import type { EmulatorLink } from './console/emulator/control.js';
import type { ServiceDeps } from './deps.js';
import { AuthFailureLimiter, AuthFailures } from './lib/auth-failures.js';
import { type Clock, systemClock } from './lib/clock.js';
import type { Config } from './lib/config.js';
import { connectionRegistry } from './lib/connection-registry.js';
import { type Listening, listen } from './lib/listen.js';
import { createLogger, type Logger } from './lib/logger.js';
import { createMetricsRegistry } from './lib/metrics.js';
import { installProcessGuard } from './lib/process-guard.js';
import { metricsApp } from './metrics-routes.js';
import { openQueue, type QueueTuning } from './queue/index.js';
import { openStore } from './store/index.js';
import { storageSpace } from './store/space.js';
import { tableBudget } from './wms-client/index.js';
import { instrumentedWmsClients } from './wms-client/metrics.js';
import { startWorkers } from './worker.js';

export interface RunOptions {
  /** Serve HTTP (serve, start) and/or run jobs (serve, worker, start). */
  http: boolean;
  worker: boolean;
  logger?: Logger;
  clock?: Clock;
  queueTuning?: QueueTuning;
  /** The emulator running beside the service (`wms-sync start`): the console offers its panel. */
  emulator?: EmulatorLink;
  /** Catch errors no handler caught (lib/process-guard.ts): the commands that run a service set it. */
  guardProcess?: boolean;
}

/** The deps as opened for a process, with the switch that tells its jobs to stop. */
export interface OpenedDeps extends ServiceDeps {
  /** Aborts `stopping`: jobs end at their next safe point, calls to the WMS in flight are abandoned. */
  stopJobs(): void;
}

export interface RunningService {
  deps: OpenedDeps;
  app?: ServiceApp;
  http?: Listening;
  /** The `METRICS_PORT` listener, when configured. */
  metricsHttp?: Listening;
  /** Graceful stop: no new requests, running jobs finish within the grace period, store closed. */
  close(): Promise<void>;
}

/** Opens the store (migrating it), the queue, then the roles asked for. */
export async function openDeps(
  config: Config,
  options: Pick<RunOptions, 'logger' | 'clock' | 'queueTuning'> = {},
): Promise<OpenedDeps> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const store = openStore(config.database, {
    onIdleError: (err) => logger.warn({ err: err.message }, 'database connection lost; it will be reopened on demand'),
  });
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  const clock = options.clock ?? systemClock;
  const space = storageSpace({
    ...(config.database.kind === 'sqlite'
      ? { dir: dirname(config.database.file), sqliteFile: config.database.file }
      : {}),
    minFreeBytes: config.dataMinFreeBytes,
  });
  const queue = openQueue(store, options.queueTuning);
  queue.on('error', (err) => {
    space.noteFailure(err);
    logger.error({ err: err.message }, 'queue error');
  });
  queue.on('failed', (e) =>
    (e.dead ? logger.error.bind(logger) : logger.warn.bind(logger))(
      { jobId: e.id, job: e.name, err: e.error.message, dead: e.dead },
      'job failed',
    ),
  );
  await queue.start();
  const metrics = createMetricsRegistry({ defaultMetrics: true });
  const stop = new AbortController();
  // Every call in flight listens on the stop signal (20 close documents asking the ERP, 64 WMS
  // calls): not a leak, and Node's warning past 10 listeners would only fill the log.
  setMaxListeners(0, stop.signal);
  return {
    config,
    logger,
    clock,
    store,
    space,
    queue,
    connections: connectionRegistry(config.connections),
    metrics,
    wms: instrumentedWmsClients({
      registry: metrics,
      timeoutMs: config.wms.timeoutMs,
      maxConcurrency: config.wms.maxConcurrency,
      initialConcurrency: config.wms.initialConcurrency,
      // On Postgres the deployment's processes share each connection's limit; on SQLite there is one process.
      ...(store.dialect === 'postgres'
        ? { budget: { shared: tableBudget(store.limitBudgets), holder: randomUUID() } }
        : {}),
      clock,
      logger: logger.child({ room: 'wms-client' }),
      signal: stop.signal,
    }),
    authFailures: new AuthFailures(
      new AuthFailureLimiter(config.authFailures, clock),
      config.authFailures.trustProxyHops,
      metrics,
    ),
    ...(alertsConfigured(config)
      ? { alerts: new AlertRecorder({ store, clock, logger: logger.child({ room: 'alerts' }) }) }
      : {}),
    stopping: stop.signal,
    stopJobs: () => stop.abort(),
  };
}

export async function runService(config: Config, options: RunOptions): Promise<RunningService> {
  const deps = await openDeps(config, options);
  const { logger } = deps;
  // A new user's empty environment starts a service that refuses everything: say so at once.
  if (deps.connections.all().length === 0) logger.warn(NO_CONNECTION_MESSAGE);
  const unguard = options.guardProcess ? installProcessGuard({ logger, registry: deps.metrics }) : () => undefined;
  let app: ServiceApp | undefined;
  let http: Listening | undefined;
  let metricsHttp: Listening | undefined;
  try {
    if (options.worker) await startWorkers(deps);
    if (options.http) {
      app = buildApp(deps, { emulator: options.emulator });
      http = await listen(app.fetch, { port: config.port, host: config.host });
    }
    if (config.metrics.port !== undefined)
      metricsHttp = await listen(metricsApp(deps).fetch, { port: config.metrics.port, host: config.metrics.host });
  } catch (err) {
    // A port in use must end the command, not leave its workers and store holding the process open.
    await http?.close(0);
    await deps.queue.stop({ graceMs: 0 }).catch(() => undefined);
    await deps.store.close().catch(() => undefined);
    throw err;
  }
  if (http) {
    // What to enter in the WMS's webhook settings: behind a proxy the bound address is not it.
    const webhooks = `${config.publicUrl ?? http.url}/webhooks/{connection}/{kind}`;
    logger.info(
      { url: http.url, publicUrl: config.publicUrl, webhooks, database: config.database.kind, worker: options.worker },
      'wms-sync listening',
    );
  } else logger.info({ database: config.database.kind }, 'wms-sync worker running');
  if (metricsHttp) logger.info({ url: `${metricsHttp.url}/metrics` }, 'metrics listening');
  // Queue timers do not hold the process open (so tests and one-shot commands can end); a running
  // service must stay up until close(), even a worker with nothing to poll yet.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  let closing: Promise<void> | undefined;
  return {
    deps,
    ...(app ? { app } : {}),
    ...(http ? { http } : {}),
    ...(metricsHttp ? { metricsHttp } : {}),
    close: () =>
      (closing ??= (async () => {
        const graceMs = config.shutdownGraceMs;
        logger.info({ graceMs }, 'shutting down');
        clearInterval(keepAlive);
        // First: running jobs stop at their next safe point (a reconciliation between batches or in
        // its settle wait, a push before or after its WMS call), and WMS calls in flight are let go.
        deps.stopJobs();
        const [, drained] = await Promise.all([http?.close(graceMs), deps.queue.stop({ graceMs })]);
        await metricsHttp?.close(0);
        // The limiters' shares of a shared budget go back to the other processes at once.
        await deps.wms.close();
        if (!drained)
          logger.warn(
            { graceMs },
            'jobs still running after SHUTDOWN_GRACE_MS; they run again once their lease runs out',
          );
        await deps.store.close();
        logger.info('stopped');
        unguard();
        logger.flush();
      })()),
  };
}
