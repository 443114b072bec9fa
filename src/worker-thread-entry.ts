import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from './lib/errors.js';
import { runService } from './main.js';
import type { FromThread, ToThread, WorkerThreadData } from './worker-thread.js';

// The job worker of `serve`, on its own thread (`worker-thread.ts`): the same roles `wms-sync
// worker` runs, on a second connection to the same store, sharing the SQLite write lock.
const port = parentPort!;
const data = workerData as WorkerThreadData;
const reply = (message: FromThread) => port.postMessage(message);

try {
  const service = await runService(data.config, {
    http: false,
    worker: true,
    shared: { sharedLock: data.sharedLock, wakeChannel: data.wakeChannel, side: 'worker' },
  });
  port.on('message', (message: ToThread) => {
    if (message.type === 'metrics') {
      void service.deps.metrics.getMetricsAsJSON().then((metrics) => reply({ type: 'metrics', id: message.id, metrics }));
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
