import { randomUUID } from 'node:crypto';
import { type AlertKind, SERVICE_WIDE } from '../lib/alert-signals.js';
import type { AlertTarget } from '../lib/alert-targets.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { AlertGroup, NewAlertMessage } from '../store/alerts/contract.js';
import type { Store } from '../store/types.js';
import { decide } from './decide.js';
import { consoleLink, renderNotice } from './format.js';
import type { AlertRecorder } from './recorder.js';
import { type SendSettings, sendAlert } from './send.js';

export interface AlertLoopDeps {
  store: Pick<Store, 'alerts'>;
  clock: Clock;
  logger: Logger;
  recorder: AlertRecorder;
  windowMs: number;
  checkMs: number;
  /** Where one connection's alerts go ('' for the service's: every target). */
  targetsOf(connection: string): AlertTarget[];
  /** The service's public URL, for the console links. */
  baseUrl: string;
  send: SendSettings;
  /** Reads the states that are alerts (tokens failing, the queue waiting); see states.ts. */
  checkStates?: (nowMs: number) => Promise<void>;
  stopping: AbortSignal;
  owner?: string;
}

/** Messages leased at once; a notifier is one endpoint, so a few in flight are plenty. */
const BATCH = 8;

/**
 * The notifications of one process: every `checkMs` (and at once after alerts were written) it
 * reads the states, turns due groups into messages (stored, one per target), and sends what is
 * due. Every process may run one: groups and messages are locked while taken.
 */
export class AlertLoop {
  readonly #d: AlertLoopDeps;
  readonly #owner: string;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(deps: AlertLoopDeps) {
    this.#d = deps;
    this.#owner = deps.owner ?? `alerts-${randomUUID()}`;
  }

  start(): void {
    this.#d.recorder.onWritten(() => this.wake());
    this.#timer = setInterval(() => this.wake(), this.#d.checkMs);
    this.#timer.unref();
    this.#d.stopping.addEventListener('abort', () => clearInterval(this.#timer), { once: true });
    this.wake();
  }

  wake(): void {
    if (this.#d.stopping.aborted) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#tickLoop().finally(() => {
      this.#running = undefined;
    });
  }

  /** One full pass, and again while something asked for one meanwhile; resolves when it ends (tests). */
  async tick(): Promise<void> {
    this.wake();
    while (this.#running) await this.#running;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  async #tickLoop(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#pass();
      } catch (err) {
        this.#d.logger.error({ err: (err as Error).message }, 'alert loop failed; it runs again at the next check');
      }
    } while (this.#again && !this.#d.stopping.aborted);
  }

  async #pass(): Promise<void> {
    if (this.#d.checkStates) await this.#d.checkStates(this.#d.clock.nowMs());
    await this.#d.recorder.flush();
    const now = this.#d.clock.now();
    const stored = await this.#d.store.alerts.notifyDue(now, (g) => this.#messages(g, now));
    if (stored > 0) this.#d.logger.info({ messages: stored }, 'notifications to send');
    for (;;) {
      if (this.#d.stopping.aborted) return;
      const at = this.#d.clock.now();
      const batch = await this.#d.store.alerts.claim({
        owner: this.#owner,
        now: at,
        leaseUntil: new Date(at.getTime() + 120_000),
        limit: BATCH,
      });
      if (batch.length === 0) return;
      const results = await Promise.all(batch.map((m) => sendAlert(this.#d.send, m, this.#d.clock, this.#d.stopping)));
      await this.#d.store.alerts.finish(this.#owner, results);
      for (const r of results) {
        const m = batch.find((b) => b.id === r.id)!;
        const fields = { alert: m.kind, connection: m.connection, phase: m.phase, url: m.url, error: r.error };
        if (r.outcome === 'dead') this.#d.logger.error(fields, 'notification dead after its last attempt');
        else if (r.outcome === 'retry') this.#d.logger.warn(fields, 'notification not sent; retried later');
      }
      // Retries come due at a later pass; only fresh work keeps this one going.
      if (results.every((r) => r.outcome !== 'sent')) return;
    }
  }

  #messages(group: AlertGroup, now: Date): { phase: 'firing' | 'resolved'; messages: NewAlertMessage[] } | null {
    const phase = decide(group, now, this.#d.windowMs);
    if (!phase) return null;
    const kind = group.kind as AlertKind;
    const notice = {
      phase,
      kind,
      connection: group.connection,
      count: phase === 'firing' ? group.pending : group.total,
      total: group.total,
      firstAt: group.firstAt,
      lastAt: group.lastAt,
      detail: group.detail,
      at: now,
      link: consoleLink(this.#d.baseUrl, group.connection, kind),
    };
    const targets = this.#d.targetsOf(group.connection === SERVICE_WIDE ? SERVICE_WIDE : group.connection);
    return {
      phase,
      messages: targets.map((t) => ({
        connection: group.connection,
        kind: group.kind,
        phase,
        url: t.url,
        format: t.format,
        body: renderNotice(t.format, notice),
      })),
    };
  }
}
