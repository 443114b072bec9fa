import type { JobRegistration } from '../deps.js';
import { createPoster } from '../erp/delivery/post.js';
import { AlertLoop } from './loop.js';
import { stateChecks } from './states.js';
import { alertRouting, consoleBase } from './targets.js';

/** Notifications are short; one answer is waited for at most this long. */
const TIMEOUT_MS = 10_000;

/**
 * The notification loop, in every process that runs jobs, when notifications are configured
 * (`deps.alerts` is then the process's recorder). Not a queue job: like the ERP push, one loop per
 * process sharing the work through the store.
 */
export const alertJobs: JobRegistration = {
  name: 'alerts',
  register: async (deps) => {
    const recorder = deps.alerts;
    if (!recorder) return;
    const settings = deps.config.alerts;
    const poster = createPoster({ timeoutMs: TIMEOUT_MS, maxSockets: 8 });
    const loop = new AlertLoop({
      store: deps.store,
      clock: deps.clock,
      logger: deps.logger.child({ room: 'alerts' }),
      recorder,
      windowMs: settings.windowMs,
      checkMs: settings.checkMs,
      targetsOf: alertRouting(deps.config),
      baseUrl: consoleBase(deps.config),
      send: { poster, secret: settings.secret, retryScheduleMs: settings.retryScheduleMs },
      checkStates: stateChecks(
        {
          tokens: () =>
            deps.connections
              .all()
              .map((c) => ({ connection: c.name, failingSinceMs: deps.wms.get(c).tokens.stats.failingSinceMs })),
          backlog: () => deps.queue.backlog(),
          tokenFailingMs: settings.tokenFailingMs,
          queueWaitMs: settings.queueWaitMs,
        },
        recorder,
      ),
      stopping: deps.stopping,
    });
    deps.stopping.addEventListener('abort', () => void loop.stop().finally(() => poster.close()), { once: true });
    loop.start();
  },
};
