import { basicAuthorization } from '../../lib/basic-auth.js';
import type { EmulatorContext } from '../context.js';
import type { FaultRegistry } from '../faults/registry.js';
import { recordAttempt } from './finish.js';
import { WebhookLogCap } from './log-cap.js';
import { postJson, type SendResult } from './send.js';
import { getWebhookConfig, type WebhookConfig } from './settings.js';
import {
  listWebhookLogRows,
  pendingCount,
  type WebhookLogEntry,
  type WebhookLogRow,
  webhookLogEntry,
  webhookLogRow,
} from './view.js';

const basic = (config: WebhookConfig): string | null =>
  config.username === null ? null : basicAuthorization(config.username, config.password ?? '');

export const hasCredentials = (config: WebhookConfig): boolean => config.username !== null;

/**
 * Sends the pending webhooks after the actions that queued them have returned, like the
 * real WMS: one request at a time per tenant, in the order they were queued, each with its own
 * timeout. The webhook log rows are the queue (so pending webhooks survive a restart on a
 * data file, and a snapshot), and every finished request is announced as a `webhook` event.
 */
export class WebhookDispatcher {
  #running = new Set<string>();
  #generation = 0;
  #abort = new AbortController();
  #timers = new Set<NodeJS.Timeout>();
  readonly #cap: WebhookLogCap;

  constructor(
    private readonly ctx: EmulatorContext,
    private readonly faults: FaultRegistry,
    webhookLogMax?: number,
  ) {
    this.#cap = new WebhookLogCap(ctx, webhookLogMax);
    ctx.events.on('queued', () => this.kick());
  }

  /** Starts sending for every tenant with pending webhooks that is not being served already. */
  kick(): void {
    const tenants = this.ctx.sql("SELECT DISTINCT tenant_id FROM webhook_log WHERE status = 'pending'").raw().all() as [
      string,
    ][];
    for (const [tenant] of tenants) if (!this.#running.has(tenant)) void this.#drain(tenant, this.#generation);
  }

  /**
   * Resolves once the tenant (or every tenant) has no pending webhook: all sent, automatic
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
          : setTimeout(() => (done(), reject(new Error(`webhooks still pending after ${timeoutMs} ms`))), timeoutMs);
      const done = () => {
        if (timer) clearTimeout(timer);
        this.ctx.events.off('webhook', check);
        this.ctx.events.off('idle', check);
      };
      this.ctx.events.on('webhook', check);
      this.ctx.events.on('idle', check);
      check();
    });
  }

  /** Resolves with the first webhook of the tenant's log (already there, or to come) that `match` accepts. */
  waitFor(tenantId: string, match: (entry: WebhookLogEntry) => boolean, timeoutMs = 10_000): Promise<WebhookLogEntry> {
    return new Promise((resolve, reject) => {
      const config = getWebhookConfig(this.ctx, tenantId);
      const found = listWebhookLogRows(this.ctx, tenantId)
        .map((r) => webhookLogEntry(r, hasCredentials(config)))
        .find(match);
      if (found) return resolve(found);
      const onWebhook = (entry: WebhookLogEntry) => {
        if (entry.tenant !== tenantId || !match(entry)) return;
        done();
        resolve(entry);
      };
      const timer = setTimeout(
        () => (done(), reject(new Error(`no matching webhook within ${timeoutMs} ms`))),
        timeoutMs,
      );
      const done = () => {
        clearTimeout(timer);
        this.ctx.events.off('webhook', onWebhook);
      };
      this.ctx.events.on('webhook', onWebhook);
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
            `SELECT w.*, c.code AS closing_document_code FROM webhook_log w LEFT JOIN closing_documents c ON c.id = w.closing_document_id
             WHERE w.tenant_id = ? AND w.status = 'pending' ORDER BY w.id LIMIT 1`,
          )
          .get(tenant) as WebhookLogRow | undefined;
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

  async #attempt(row: WebhookLogRow, generation: number): Promise<void> {
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
    this.ctx.events.emit('webhook', webhookLogEntry(webhookLogRow(this.ctx, row.id)!, hasCredentials(config)));
    this.#cap.finished(row.tenant_id);
  }
}
