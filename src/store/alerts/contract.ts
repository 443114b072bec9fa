import type { AlertMessageState, AlertPhase } from '../values.js';

/** Occurrences of one alert kind on one connection, counted together ('' is the service as a whole). */
export interface AlertRaise {
  connection: string;
  kind: string;
  count: number;
  /** When the first and the last of them happened. */
  firstAt: Date;
  lastAt: Date;
  /** What the last one was, in a line (an event id, a document code, an error). */
  detail: string;
  /** A state that holds until cleared (a breaker open), rather than things that happen. */
  sticky: boolean;
}

export interface AlertGroup {
  connection: string;
  kind: string;
  firing: boolean;
  sticky: boolean;
  cleared: boolean;
  pending: number;
  total: number;
  firstAt: Date;
  lastAt: Date;
  notifiedAt: Date | null;
  detail: string;
}

export interface NewAlertMessage {
  connection: string;
  kind: string;
  phase: AlertPhase;
  url: string;
  format: string;
  body: string;
}

export interface AlertMessage extends NewAlertMessage {
  id: number;
  state: AlertMessageState;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

export interface AlertSendResult {
  id: number;
  outcome: 'sent' | 'retry' | 'dead';
  nextAttemptAt?: Date;
  error: string | null;
  at: Date;
}

export interface AlertsRepo {
  /**
   * Counts occurrences into their groups (a group not firing starts again from them) and marks the
   * `cleared` ones; a clear of a group that is not firing changes nothing.
   */
  record(raised: readonly AlertRaise[], cleared: readonly { connection: string; kind: string }[]): Promise<void>;
  /**
   * Every firing group is shown to `decide` while it is locked (another process skips it); the
   * messages it returns are stored with the group's new state in one transaction: `firing` takes
   * the pending count, `resolved` ends the group. Answers the number of messages stored.
   */
  notifyDue(
    now: Date,
    decide: (group: AlertGroup) => { phase: AlertPhase; messages: NewAlertMessage[] } | null,
  ): Promise<number>;
  /**
   * Leases messages due to be sent, oldest first, skipping one while an older message for the same
   * target, connection and kind is still pending (so a resolution never overtakes its alert).
   */
  claim(input: { owner: string; now: Date; leaseUntil: Date; limit: number }): Promise<AlertMessage[]>;
  /** Records attempts of messages this owner leased. */
  finish(owner: string, results: readonly AlertSendResult[]): Promise<void>;
  groups(): Promise<AlertGroup[]>;
  /** Deletes (or, with `dryRun`, counts) sent and dead messages created before `before`. */
  prune(before: Date, dryRun: boolean): Promise<{ messages: number }>;
  /** The latest messages, newest first. */
  messages(limit: number): Promise<AlertMessage[]>;
}
