import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from './lib/errors.js';
import { type RunningService, runService } from './main.js';
import { wmsTokenView } from './wms-client/index.js';
import type { FromThread, ThreadQueries, ThreadQuery, ToThread, WorkerThreadData } from './worker-thread.js';

// The job worker of `serve`, on its own thread (`worker-thread.ts`): the same roles `wms-sync
// worker` runs, on a second connection to the same store, sharing the SQLite write lock.
const port = parentPort!;
const data = workerData as WorkerThreadData;
const reply = (message: FromThread) => port.postMessage(message);

const answers: {
  [Q in ThreadQuery]: (
    service: RunningService,
    input: ThreadQueries[Q]['input'],
  ) => Promise<ThreadQueries[Q]['output']>;
} = {
  metrics: (service) => service.deps.metrics.getMetricsAsJSON(),
  tokens: async (service, name) => {
    const connection = service.deps.connections.get(name);
    return connection
      ? wmsTokenView(service.deps.wms.get(connection).tokens)
      : { requests: 0, failures: 0, expiresInSeconds: null };
  },
};

try {
  const service = await runService(data.config, {
    http: false,
    worker: true,
    shared: { sharedLock: data.sharedLock, wakeChannel: data.wakeChannel, side: 'worker' },
  });
  port.on('message', (message: ToThread) => {
    if (message.type === 'query') {
      const answer = answers[message.query] as (service: RunningService, input: unknown) => Promise<unknown>;
      void answer(service, message.input).then(
        (output) => reply({ type: 'answer', id: message.id, output }),
        (err: unknown) => {
          service.deps.logger.warn(
            { err: errorMessage(err), query: message.query },
            'worker thread could not answer a query',
          );
          reply({ type: 'answer', id: message.id, output: null, failed: true });
        },
      );
      return;
    }
    void service.close().then(() => {
      reply({ type: 'stopped' });
      port.close();
    });
  });
  reply({ type: 'ready' });
} catch (err) {
  reply({ type: 'start-failed', message: errorMessage(err) });
  port.close();
}
