import type { EmulatorContext } from '../context.js';

/** Default number of finished webhooks a tenant's log keeps. */
export const DEFAULT_WEBHOOK_LOG_MAX = 10_000;

/**
 * Keeps a tenant's webhook log at its newest `max` finished webhooks (pending ones are the
 * dispatcher's queue and always stay). Called every `max / 10` finished webhooks, so the log
 * stays within `max` plus a tenth and the delete costs little per webhook.
 */
export function trimWebhookLog(ctx: EmulatorContext, tenantId: string, max: number): number {
  return ctx
    .sql(
      `DELETE FROM webhook_log WHERE tenant_id = ? AND status <> 'pending' AND id < (
         SELECT id FROM webhook_log WHERE tenant_id = ? AND status <> 'pending' ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    )
    .run(tenantId, tenantId, max - 1).changes;
}

/** Counts finished webhooks per tenant and trims a tenant's log every `max / 10` of them. */
export class WebhookLogCap {
  readonly #since = new Map<string, number>();
  readonly #every: number;

  constructor(
    private readonly ctx: EmulatorContext,
    readonly max: number = DEFAULT_WEBHOOK_LOG_MAX,
  ) {
    this.#every = Math.max(1, Math.floor(max / 10));
  }

  finished(tenantId: string): void {
    const n = (this.#since.get(tenantId) ?? 0) + 1;
    if (n < this.#every) {
      this.#since.set(tenantId, n);
      return;
    }
    this.#since.set(tenantId, 0);
    trimWebhookLog(this.ctx, tenantId, this.max);
  }
}
