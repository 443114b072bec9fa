import { randomUUID } from 'node:crypto';
import type { AlertSignals } from '../../lib/alert-signals.js';
import type { Clock } from '../../lib/clock.js';
import type { Config } from '../../lib/config.js';
import type { ConnectionConfig, ErpWebhookConfig } from '../../lib/connections.js';
import { eventFields } from '../../lib/event-log.js';
import type { Logger } from '../../lib/logger.js';
import { noTracing, type Tracing } from '../../lib/tracing.js';
import type { BreakerRow, ClaimedDelivery, DeliveryResult } from '../../store/erp-deliveries/contract.js';
import type { Store } from '../../store/types.js';
import { toErpFeedEntry } from '../feed/read.js';
import { CLOSED, stepBreaker } from './breaker.js';
import { classify } from './classify.js';
import { dispatchFeed } from './dispatch.js';
import type { DeliveryMetrics } from './metrics.js';
import type { Poster } from './post.js';
import { signMessage } from './sign.js';
import { webhookIdOf } from './webhook-id.js';

export type PushConnection = Pick<ConnectionConfig, 'name'> & { erpWebhook: ErpWebhookConfig };

export interface DeliveryWorkerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  settings: Config['delivery'];
  connections: readonly PushConnection[];
  poster: Poster;
  metrics?: DeliveryMetrics;
  /** A client span per attempt, in the trace of the feed entry, its traceparent sent to the ERP. */
  tracing?: Tracing;
  /** Aborted when the process stops: no new claims, requests in flight are let go (their lease runs out, and they are sent again). */
  stopping: AbortSignal;
  /** Lease owner; unique per worker. */
  owner?: string;
  random?: () => number;
  alerts?: AlertSignals;
}

/**
 * How often the loop mends order keys left without a head mark (`ErpDeliveriesRepo.repairHeads`):
 * at its first run, then once a minute. Only a process of an older version, running beside this
 * one during a rolling deploy, leaves such keys; the check reads two indexes of pending deliveries.
 */
const HEADS_CHECK_MS = 60_000;

/**
 * The push loop of one process: dispatches new feed events into deliveries, leases due ones (in
 * order per key, see ErpDeliveriesRepo.claim), POSTs them signed with up to `concurrency` in flight,
 * and records each attempt. Woken at once by a commit that appended to a feed in this process,
 * by a finished request, and every `pollMs` (other processes' events, retries coming due).
 */
export class DeliveryWorker {
  readonly #d: DeliveryWorkerDeps;
  readonly #owner: string;
  readonly #byName: Map<string, PushConnection>;
  readonly #inFlight = new Map<number, AbortController>();
  #results: { result: DeliveryResult; ok: boolean; connection: string }[] = [];
  #breakers = new Map<string, BreakerRow>();
  #running: Promise<void> | undefined;
  #again = false;
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #idle: (() => void)[] = [];
  /** Connections whose feed may have grown since their last dispatch. */
  readonly #dirty = new Set<string>();
  /** When the breakers were last read (performance.now()): another process may change them. */
  #breakersReadAt = -Infinity;
  #headsCheckedAt = -Infinity;

  constructor(deps: DeliveryWorkerDeps) {
    this.#d = deps;
    this.#owner = deps.owner ?? `delivery-${randomUUID()}`;
    this.#byName = new Map(deps.connections.map((c) => [c.name, c]));
  }

  start(): void {
    this.#unsubscribe = this.#d.store.onFeedAppended((connection) => {
      if (!this.#byName.has(connection)) return;
      this.#dirty.add(connection);
      this.wake();
    });
    this.#timer = setInterval(() => this.#poll(), this.#d.settings.pollMs);
    this.#timer.unref();
    this.#d.stopping.addEventListener('abort', () => this.stop(), { once: true });
    this.#poll();
  }

  /** Other processes' feed events and retries coming due are found here. */
  #poll(): void {
    for (const c of this.#d.connections) this.#dirty.add(c.name);
    this.#breakersReadAt = -Infinity;
    this.wake();
  }

  /** Stops claiming and lets requests in flight go; resolves once the loop and the last write ended. */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    clearInterval(this.#timer);
    for (const c of this.#inFlight.values()) c.abort();
    await this.#running?.catch(() => undefined);
    await this.#flush().catch(() => undefined);
  }

  wake(): void {
    if (this.#d.stopping.aborted) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#loop()
      .catch((err: unknown) =>
        this.#d.logger.error({ err: (err as Error).message }, 'delivery loop failed; it runs again at the next poll'),
      )
      .finally(() => {
        this.#running = undefined;
        if (this.#again) this.wake();
        else if (this.#inFlight.size === 0 && this.#results.length === 0 && !this.#flushing)
          for (const f of this.#idle.splice(0)) f();
      });
  }

  /** Resolves once nothing is in flight or waiting to be written (tests, the bench). */
  settled(): Promise<void> {
    if (
      !this.#running &&
      this.#inFlight.size === 0 &&
      this.#results.length === 0 &&
      !this.#flushing &&
      !this.#flushScheduled
    )
      return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      if (this.#d.stopping.aborted) return;
      const now = this.#d.clock.now();
      for (const c of this.#d.connections) {
        if (!this.#dirty.delete(c.name)) continue;
        await dispatchFeed(this.#d.store, c, now);
      }
      if (performance.now() - this.#headsCheckedAt >= HEADS_CHECK_MS) {
        this.#headsCheckedAt = performance.now();
        const mended = await this.#d.store.erpDeliveries.repairHeads();
        if (mended > 0)
          this.#d.logger.warn(
            { keys: mended },
            'order keys with pending deliveries and no head mark mended (a process of an older version ran beside this one?)',
          );
      }
      if (performance.now() - this.#breakersReadAt >= this.#d.settings.pollMs) {
        this.#breakersReadAt = performance.now();
        for (const b of await this.#d.store.erpDeliveries.breakers()) this.#breakers.set(b.connection, b);
      }
      const free = this.#d.settings.concurrency - this.#inFlight.size;
      // Under load, claim in batches (a quarter of the slots): each claim reads past the leased
      // rows, so one per finished request would cost more than the requests.
      if (free <= 0 || (free < this.#d.settings.concurrency / 4 && this.#inFlight.size > 0)) return;
      const closed = this.#d.connections
        .filter((c) => (this.#breakers.get(c.name)?.state ?? 'closed') === 'closed')
        .map((c) => c.name);
      const leaseUntil = new Date(now.getTime() + this.#d.settings.timeoutMs * 2 + 30_000);
      const claimed = await this.#d.store.erpDeliveries.claim({
        connections: closed,
        owner: this.#owner,
        now,
        leaseUntil,
        limit: free,
      });
      for (const c of claimed) this.#send(c, false);
      for (const c of this.#d.connections) {
        const b = this.#breakers.get(c.name);
        if (b?.state !== 'open' || !b.nextProbeAt || b.nextProbeAt > now) continue;
        if (
          !(await this.#d.store.erpDeliveries.takeProbe(
            c.name,
            now,
            new Date(now.getTime() + this.#d.settings.breakerProbeMs),
          ))
        )
          continue;
        const probe = await this.#d.store.erpDeliveries.claimProbe({
          connection: c.name,
          owner: this.#owner,
          now,
          leaseUntil,
        });
        if (probe) this.#send(probe, true);
      }
      if (claimed.length === free) this.#again = true;
    } while (this.#again && !this.#d.stopping.aborted);
  }

  #send({ delivery, event }: ClaimedDelivery, probe: boolean): void {
    const connection = this.#byName.get(delivery.connection)!;
    const controller = new AbortController();
    this.#inFlight.set(delivery.id, controller);
    void (async () => {
      const at = this.#d.clock.now();
      let result: DeliveryResult;
      let ok = true;
      if (!event) {
        result = {
          id: delivery.id,
          outcome: 'dead',
          status: null,
          latencyMs: 0,
          response: null,
          error: 'the feed event was pruned before it could be delivered',
          probe,
          at,
        };
      } else {
        const body = JSON.stringify(toErpFeedEntry(event));
        const headers = signMessage(
          connection.erpWebhook.secrets,
          webhookIdOf(delivery.connection, delivery.feedEntryId),
          at,
          body,
        );
        const span = (this.#d.tracing ?? noTracing).start('erp.delivery', {
          kind: 'client',
          parent: event.traceparent,
          attributes: {
            'wms_sync.connection': delivery.connection,
            'wms_sync.delivery_id': delivery.id,
            'wms_sync.attempt': delivery.attempts + 1,
            'wms_sync.probe': probe,
          },
        });
        const post = await this.#d.poster.post(
          connection.erpWebhook.url,
          { ...headers, 'user-agent': 'wms-sync', ...(span.traceparent ? { traceparent: span.traceparent } : {}) },
          body,
          controller.signal,
        );
        span.end(
          post.kind === 'answered' && post.status < 300
            ? undefined
            : new Error(post.kind === 'answered' ? `answered ${post.status}` : 'no answer'),
        );
        if (controller.signal.aborted) {
          this.#inFlight.delete(delivery.id);
          return;
        }
        const ended = this.#d.clock.now();
        const verdict = classify(
          post,
          delivery.attempts + 1,
          this.#d.settings.retryScheduleMs,
          ended,
          (this.#d.random ?? Math.random)(),
        );
        ok = !verdict.endpointFailed;
        result = {
          id: delivery.id,
          outcome: verdict.outcome,
          ...(verdict.nextAttemptAt ? { nextAttemptAt: verdict.nextAttemptAt } : {}),
          status: post.kind === 'answered' ? post.status : null,
          latencyMs: post.latencyMs,
          response: post.kind === 'answered' ? post.response : null,
          error: verdict.error,
          probe,
          at: ended,
        };
        this.#d.metrics?.latencySeconds.observe({ connection: delivery.connection }, post.latencyMs / 1000);
        if (verdict.outcome === 'delivered')
          this.#d.metrics?.lagSeconds.observe(
            { connection: delivery.connection },
            Math.max(0, ended.getTime() - delivery.feedAt.getTime()) / 1000,
          );
      }
      this.#d.metrics?.attempts.inc({ connection: delivery.connection, outcome: result.outcome });
      const fields = {
        // A drift found by reconciliation has no inbound event behind it.
        ...(event?.sourceEventId
          ? eventFields(event.sourceEventId, delivery.connection)
          : { connection: delivery.connection }),
        feedEntryId: delivery.feedEntryId,
        deliveryId: delivery.id,
        attempt: delivery.attempts + 1,
        outcome: result.outcome,
        status: result.status,
      };
      if (result.outcome === 'dead') {
        this.#d.logger.warn({ ...fields, err: result.error }, 'ERP delivery dead after its last attempt');
        this.#d.alerts?.raise(
          delivery.connection,
          'delivery_dead',
          `feed entry ${delivery.feedEntryId} (${delivery.type}): ${result.error ?? 'no answer'}`,
        );
      } else this.#d.logger.debug(fields, 'ERP delivery attempt');
      // The slot stays taken until the attempt is written: the breaker and the key order then
      // always see it before this process claims anything more.
      this.#results.push({ result, ok, connection: delivery.connection });
      this.#scheduleFlush();
    })();
  }

  #flushScheduled = false;

  /** On the next turn: answers that arrive together are written in one transaction. */
  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      void this.#flush().catch((err: unknown) =>
        this.#d.logger.error({ err: (err as Error).message }, 'recording delivery attempts failed'),
      );
    });
  }

  /** Writes the finished attempts in one transaction (one at a time), then the breakers, then looks for more work. */
  #flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    if (this.#results.length === 0) return Promise.resolve();
    this.#flushing = (async () => {
      try {
        while (this.#results.length > 0) {
          const batch = this.#results.splice(0);
          try {
            await this.#d.store.erpDeliveries.finish(
              this.#owner,
              batch.map((b) => b.result),
            );
            await this.#updateBreakers(batch);
          } finally {
            for (const b of batch) this.#inFlight.delete(b.result.id);
          }
        }
      } finally {
        this.#flushing = undefined;
      }
      this.wake();
    })();
    return this.#flushing;
  }

  async #updateBreakers(batch: { ok: boolean; connection: string; result: DeliveryResult }[]): Promise<void> {
    const now = this.#d.clock.now();
    const settings = { failures: this.#d.settings.breakerFailures, probeMs: this.#d.settings.breakerProbeMs };
    for (const name of new Set(batch.map((b) => b.connection))) {
      const outcomes = batch.filter((b) => b.connection === name).map((b) => b.ok);
      const known = this.#breakers.get(name) ?? CLOSED;
      // The common case, everything fine and the breaker closed: no write.
      if (known.state === 'closed' && known.failures === 0 && outcomes.every((ok) => ok)) continue;
      const before = known.state;
      const row = await this.#d.store.erpDeliveries.updateBreaker(
        name,
        (current) => stepBreaker(current, outcomes, settings, now),
        now,
      );
      this.#breakers.set(name, row);
      if (row.state === 'open' && before !== 'open')
        this.#d.alerts?.raise(name, 'breaker_open', `${row.failures} failures in a row`);
      if (before === 'open' && row.state === 'closed') this.#d.alerts?.clear(name, 'breaker_open');
      if (row.state === 'open' && before !== 'open')
        this.#d.logger.warn(
          { connection: name, failures: row.failures },
          'ERP endpoint failing: circuit breaker open, sending probes only',
        );
      if (before === 'open' && row.state === 'closed') {
        // Deliveries held by the breaker (not by their own failures) go now, not at their retry times.
        const n = await this.#d.store.erpDeliveries.rescheduleNow(name, now);
        this.#d.logger.info({ connection: name, rescheduled: n }, 'ERP endpoint back: circuit breaker closed');
      }
    }
  }
}
