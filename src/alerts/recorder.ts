import { ALERT_KINDS, type AlertKind, type AlertSignals } from '../lib/alert-signals.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { AlertRaise } from '../store/alerts/contract.js';
import type { Store } from '../store/types.js';

/** The longest a failed write waits before it is tried again; the signals stay in memory meanwhile. */
const RETRY_MS = 5_000;

/**
 * The process's AlertSignals: `raise` and `clear` only touch memory, so they cost the webhook path
 * nothing; the buffer is written on the next turn of the event loop (one transaction for all that
 * arrived together), and kept for the next try when the store cannot take it.
 */
export class AlertRecorder implements AlertSignals {
  readonly #store: Pick<Store, 'alerts'>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #raised = new Map<string, AlertRaise>();
  #cleared = new Map<string, { connection: string; kind: string }>();
  #scheduled = false;
  #writing: Promise<void> | undefined;
  readonly #listeners: (() => void)[] = [];

  constructor(deps: { store: Pick<Store, 'alerts'>; clock: Clock; logger: Logger }) {
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
  }

  raise(connection: string, kind: AlertKind, detail: string): void {
    const key = `${connection}\u0000${kind}`;
    const at = this.#clock.now();
    const known = this.#raised.get(key);
    this.#cleared.delete(key);
    this.#raised.set(
      key,
      known
        ? { ...known, count: known.count + 1, lastAt: at, detail }
        : { connection, kind, count: 1, firstAt: at, lastAt: at, detail, sticky: ALERT_KINDS[kind].sticky },
    );
    this.#schedule(0);
  }

  clear(connection: string, kind: AlertKind): void {
    this.#cleared.set(`${connection}\u0000${kind}`, { connection, kind });
    this.#schedule(0);
  }

  /** Called after each write of raised alerts (the alert loop wakes to tell them). */
  onWritten(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Writes what is buffered; resolves once it is in the store (or the write failed and was rescheduled). */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
    if (this.#raised.size === 0 && this.#cleared.size === 0) return;
    const raised = [...this.#raised.values()];
    const cleared = [...this.#cleared.values()];
    this.#raised = new Map();
    this.#cleared = new Map();
    this.#writing = this.#store.alerts
      .record(raised, cleared)
      .then(() => {
        if (raised.length > 0) for (const l of this.#listeners) l();
      })
      .catch((err: unknown) => {
        this.#logger.warn({ err: (err as Error).message }, 'alerts not written yet; trying again');
        this.#putBack(raised, cleared);
        this.#schedule(RETRY_MS);
      })
      .finally(() => {
        this.#writing = undefined;
      });
    await this.#writing;
  }

  #putBack(raised: AlertRaise[], cleared: { connection: string; kind: string }[]): void {
    for (const r of raised) {
      const key = `${r.connection}\u0000${r.kind}`;
      const newer = this.#raised.get(key);
      this.#raised.set(key, newer ? { ...newer, count: newer.count + r.count, firstAt: r.firstAt } : r);
    }
    for (const c of cleared) {
      const key = `${c.connection}\u0000${c.kind}`;
      if (!this.#raised.has(key)) this.#cleared.set(key, c);
    }
  }

  #schedule(delayMs: number): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    const run = () => {
      this.#scheduled = false;
      void this.flush();
    };
    if (delayMs === 0) setImmediate(run);
    else setTimeout(run, delayMs).unref();
  }
}
