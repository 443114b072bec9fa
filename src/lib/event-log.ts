import type { Logger } from './logger.js';

/** What identifies one inbound event in the log: every line of its life carries these. */
export interface EventLogFields {
  eventId: number;
  connection: string;
}

/**
 * The fields that join up the log lines of one inbound event's life: its receipt, processing,
 * feed entry and ERP delivery attempts (docs/operations.md, "Following one event through the
 * logs"). The single place to add what else identifies it, such as the trace id when tracing is on.
 */
export function eventFields(eventId: number, connection: string): EventLogFields {
  return { eventId, connection };
}

/** A child logger whose every line carries the event's fields. */
export function eventLog(logger: Logger, eventId: number, connection: string): Logger {
  return logger.child(eventFields(eventId, connection));
}
