import { BroadcastChannel } from 'node:worker_threads';

/**
 * Carries "a job was sent to queue X" between the threads of one process: `serve`'s receiver
 * sends on its thread, the worker's loops run on another (docs/scaling.md), and a loop woken only
 * by its poll interval would add up to that interval to every webhook's processing lag.
 */
export interface WakeChannel {
  /** Tells the other threads' loops of this queue name. */
  post(queue: string): void;
  close(): void;
}

export function openWakeChannel(name: string, onWake: (queue: string) => void): WakeChannel {
  const channel = new BroadcastChannel(name);
  // A channel must never keep a stopped process alive.
  channel.unref();
  channel.onmessage = (message) => {
    const data = (message as MessageEvent).data;
    if (typeof data === 'string') onWake(data);
  };
  return {
    post: (queue) => channel.postMessage(queue),
    close: () => channel.close(),
  };
}
