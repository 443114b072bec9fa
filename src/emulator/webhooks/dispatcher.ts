import { basicAuthorization } from '../../lib/basic-auth.js';
import type { EmulatorContext } from '../context.js';
import type { FaultRegistry } from '../faults/registry.js';
import { recordAttempt } from './finish.js';
import { DeliveryLogCap } from './log-cap.js';
import { postJson, type SendResult } from './send.js';
import { getWebhookConfig, type WebhookConfig } from './settings.js';
import {
  type DeliveryRow,
  type DeliveryView,
  deliveryRow,
  deliveryView,
  listDeliveryRows,
  pendingCount,
} from './view.js';

const basic = (config: WebhookConfig): string | null =>
  config.username === null ? null : basicAuthorization(config.username, config.password ?? '');

export const hasCredentials = (config: WebhookConfig): boolean => config.username !== null;

/**
 * Sends the pending webhook deliveries after the actions that queued them have returned, like the
 * real WMS: one request at a time per tenant, in the order they were queued, each with its own
 * timeout. The delivery log rows are the queue (so pending deliveries survive a restart on a
 * data file, and a snapshot), and every finished request is announced as a `delivery` event.
 */
export class WebhookDispatcher {
  #running = new Set<string>();
  #generation = 0;
  #abort = new AbortController();
  #timers = new Set<NodeJS.Timeout>();
  readonly #cap: DeliveryLogCap;

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly faults: FaultRegistry,
    deliveryLogMax?: number,
  ) {
    this.#cap = new DeliveryLogCap(ctx, deliveryLogMax);
    ctx.events.on('queued', () => this.kick());
  }

  /** Starts sending for every tenant with pending deliveries that is not being served already. */
  kick(): void {
    const tenants = this.ctx
      .sql("SELECT DISTINCT tenant_id FROM webhook_deliveries WHERE status = 'pending'")
      .raw()
      .all() as [string][];
    for (const [tenant] of tenants) if (!this.#running.has(tenant)) void this.#drain(tenant, this.#generation);
  }

  /**
   * Resolves once the tenant (or every tenant) has no pending delivery: all sent, automatic
   * retries and duplicates included. Rejects after `timeoutMs` when given.
   */
  settled(tenantId?: string, timeoutMs?: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (pendingCount(this.ctx, tenantId) > 0) return;
        done();
        resolve();
      };
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(
              () => (done(), reject(new Error(`webhook deliveries still pending after ${timeoutMs} ms`))),
              timeoutMs,
            );
      const done = () => {
        if (timer) clearTimeout(timer);
        this.ctx.events.off('delivery', check);
        this.ctx.events.off('idle', check);
      };
      this.ctx.events.on('delivery', check);
      this.ctx.events.on('idle', check);
      check();
    });
  }

  /** Resolves with the first delivery of the tenant's log (already there, or to come) that `match` accepts. */
  waitFor(tenantId: string, match: (delivery: DeliveryView) => boolean, timeoutMs = 10_000): Promise<DeliveryView> {
    return new Promise((resolve, reject) => {
      const config = getWebhookConfig(this.ctx, tenantId);
      const found = listDeliveryRows(this.ctx, tenantId)
        .map((r) => deliveryView(r, hasCredentials(config)))
        .find(match);
      if (found) return resolve(found);
      const onDelivery = (delivery: DeliveryView) => {
        if (delivery.tenant !== tenantId || !match(delivery)) return;
        done();
        resolve(delivery);
      };
      const timer = setTimeout(
        () => (done(), reject(new Error(`no matching delivery within ${timeoutMs} ms`))),
        timeoutMs,
      );
      const done = () => {
        clearTimeout(timer);
        this.ctx.events.off('delivery', onDelivery);
      };
      this.ctx.events.on('delivery', onDelivery);
    });
  }

  /** Abandons in-flight requests and timers (state reset, restored, or emulator closing). */
  reset(): void {
    this.#generation += 1;
    this.#abort.abort();
    this.#abort = new AbortController();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#running.clear();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.add(timer);
    });
  }

  async #drain(tenant: string, generation: number): Promise<void> {
    this.#running.add(tenant);
    try {
      for (;;) {
        if (generation !== this.#generation) return;
        const row = this.ctx
          .sql(
            `SELECT w.*, c.code AS closing_document_code FROM webhook_deliveries w LEFT JOIN closing_documents c ON c.id = w.closing_document_id
             WHERE w.tenant_id = ? AND w.status = 'pending' ORDER BY w.id LIMIT 1`,
          )
          .get(tenant) as DeliveryRow | undefined;
        if (!row) break;
        const wait = row.not_before - Date.now();
        if (wait > 0) {
          await this.#sleep(wait);
          continue;
        }
        await this.#attempt(row, generation);
      }
    } catch (err) {
      this.ctx.logger.error({ err, tenant }, 'emulator: webhook dispatcher stopped');
    } finally {
      if (generation === this.#generation) this.#running.delete(tenant);
    }
    if (generation === this.#generation) this.ctx.events.emit('idle', tenant);
  }

  async #attempt(row: DeliveryRow, generation: number): Promise<void> {
    const config = getWebhookConfig(this.ctx, row.tenant_id);
    const fault = this.faults.take('webhook', 'POST', new URL(row.url).pathname);
    if (fault?.latencyMs) await this.#sleep(fault.latencyMs);
    if (generation !== this.#generation) return;
    const result: SendResult = fault?.drop
      ? { status: null, body: null, error: 'not sent: dropped by fault injection', durationMs: 0 }
      : await postJson({
          url: row.url,
          body: row.body,
          authorization: basic(config),
          timeoutMs: config.timeoutMs,
          signal: this.#abort.signal,
        });
    if (generation !== this.#generation) return;
    const recorded = this.ctx.db.transaction(() => recordAttempt(this.ctx, row, result, config))();
    if (!recorded) return;
    this.ctx.events.emit('delivery', deliveryView(deliveryRow(this.ctx, row.id)!, hasCredentials(config)));
    this.#cap.finished(row.tenant_id);
  }
}
