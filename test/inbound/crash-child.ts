// `wms-sync serve` with the queue's maintenance every second instead of every 30 s, for the
// Postgres crash test: pg-boss hands a dead process's jobs back only at maintenance, and the test
// should not wait half a minute for that. Everything else is the real service.
import { loadConfig } from '../../src/lib/config.js';
import { runService } from '../../src/main.js';

const service = await runService(loadConfig(process.env), {
  http: true,
  worker: true,
  queueTuning: { pgboss: { maintenanceIntervalSeconds: 1 }, sqlite: { maintenanceIntervalMs: 200 } },
});
const stop = () => void service.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
