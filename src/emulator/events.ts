import type { EventEmitter } from 'node:events';
import type { WebhookLogEntry } from './webhooks/log-entry.js';

/**
 * What the emulator announces in-process (`state.events`), so tests and the service's end-to-end
 * tests wait on events rather than sleeping.
 */
export interface EmulatorEventMap {
  /** A webhook request finished, whatever its outcome (the webhook log row as the control API shows it). */
  webhook: [entry: WebhookLogEntry];
  /** New webhooks are pending; wakes the dispatcher (emitted after the action's transaction commits). */
  queued: [];
  /** A tenant has no pending webhook left. */
  idle: [tenant: string];
}

export type EmulatorEvents = EventEmitter<EmulatorEventMap>;
