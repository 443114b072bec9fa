import type { AlertsRepo } from './alerts/contract.js';
import type { AuditRepo } from './audit/contract.js';
import type { ErpDeliveriesRepo } from './erp-deliveries/contract.js';
import type { FeedRepo } from './feed/contract.js';
import type { InboxRepo } from './inbox/contract.js';
import type { LedgerRepo } from './ledger/contract.js';
import type { LimitBudgetRepo } from './limit-budgets/contract.js';
import type { ProcessingRepo } from './processing/contract.js';
import type { PushesRepo } from './pushes/contract.js';
import type { ReadModelsRepo } from './read-models/contract.js';
import type { ReconciliationRepo } from './reconciliation/contract.js';
import type { RetentionRepo } from './retention/contract.js';

export type * from './alerts/contract.js';
// Each repository's contract lives beside its two implementations (src/store/<repo>/); this file
// composes them into the store and re-exports them for the rooms.
export type * from './audit/contract.js';
export type * from './erp-deliveries/contract.js';
export type * from './feed/contract.js';
export type * from './inbox/contract.js';
export type * from './ledger/contract.js';
export type * from './limit-budgets/contract.js';
export type * from './processing/contract.js';
export type * from './pushes/contract.js';
export type * from './read-models/contract.js';
export type * from './reconciliation/contract.js';
export type * from './retention/contract.js';

export interface Repos {
  inbox: InboxRepo;
  processing: ProcessingRepo;
  pushes: PushesRepo;
  feed: FeedRepo;
  ledger: LedgerRepo;
  reconciliation: ReconciliationRepo;
  /** Pruning by age (docs/operations.md); used by `wms-sync prune` and the daily prune job. */
  retention: RetentionRepo;
  /** Counts and keyset pages for operators (admin API, console). */
  readModels: ReadModelsRepo;
  /** ERP deliveries: feed entries sent to the ERP's webhook, their attempts, cursors, breakers. */
  erpDeliveries: ErpDeliveriesRepo;
  /** Operator actions: who did what, on what, when, and how it ended. */
  audit: AuditRepo;
}

/** The connection behind a transaction, for adapters (the queue) that must write in it too. */
export type TxHandle =
  | { dialect: 'sqlite'; db: import('better-sqlite3').Database }
  | { dialect: 'postgres'; client: import('pg').PoolClient };

export interface StoreTx extends Repos {
  readonly handle: TxHandle;
  /** Runs after the transaction commits (never after a rollback); e.g. to wake a local worker. */
  afterCommit(fn: () => void): void;
}

export interface Store extends Repos {
  readonly dialect: 'sqlite' | 'postgres';
  /** The adaptive WMS concurrency limits shared by the processes on this database. */
  readonly limitBudgets: LimitBudgetRepo;
  /** Notifications: alert groups and the messages that tell them (src/alerts/). */
  readonly alerts: AlertsRepo;
  /**
   * Runs `fn` in one transaction: everything written through `tx` (and jobs sent with `{ tx }`)
   * commits together or not at all. Use only `tx` inside `fn`; the store itself would wait for the
   * transaction to end (SQLite) or write outside it (Postgres).
   */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** Applies pending migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `listener` with the connection after a transaction that appended to its feed commits
   * (in this process); returns the unsubscribe. How the delivery room hears of new events at once.
   */
  onFeedAppended(listener: (connection: string) => void): () => void;
}
