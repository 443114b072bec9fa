import type { Queue, QueueEvents } from '../../src/queue/types.js';

/** Resolves with the first `event` from `queue` whose payload matches `match` (or rejects after `timeoutMs`). */
export function nextEvent<E extends 'completed' | 'failed'>(
  queue: Queue,
  event: E,
  match: (payload: QueueEvents[E][0]) => boolean,
  timeoutMs = 15_000,
): Promise<QueueEvents[E][0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      queue.off(event, listener as never);
      reject(new Error(`no ${event} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: QueueEvents[E][0]) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      queue.off(event, listener as never);
      resolve(payload);
    };
    queue.on(event, listener as never);
  });
}
