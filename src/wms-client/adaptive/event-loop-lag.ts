import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

let histogram: IntervalHistogram | undefined;
let lastMeanMs = 0;

/**
 * How late this process runs its callbacks lately (mean event-loop delay over the last second, ms).
 * A busy process sees every WMS answer that much later: the limiter takes it off the round trip,
 * so its own CPU load is not mistaken for the WMS queueing (which would lower the limit, and with
 * it the throughput, exactly when the process is busiest).
 */
export function eventLoopLagMs(): number {
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const timer = setInterval(() => {
      // The histogram counts the resolution's own sleep as delay: only what is beyond it is lag.
      lastMeanMs = Math.max(0, histogram!.mean / 1e6 - 10);
      histogram!.reset();
    }, 1000);
    timer.unref();
  }
  return lastMeanMs;
}
