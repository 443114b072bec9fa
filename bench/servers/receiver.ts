// The service's app as `wms-sync serve` builds it (all middleware, auth, validation, durable
// insert and enqueue), without the worker so that processing does not share the CPU.
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/lib/config.js';
import { listen } from '../../src/lib/listen.js';
import { openDeps } from '../../src/main.js';

const deps = await openDeps(loadConfig(process.env));
const http = await listen(buildApp(deps).fetch, { port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${http.url}\n`);
process.once(
  'SIGTERM',
  () =>
    void (async () => {
      await http.close(1000);
      await deps.queue.stop({ graceMs: 0 });
      await deps.store.close();
      process.exit(0);
    })(),
);
