import type { EmulatorContext } from '../context.js';

/** Default number of finished deliveries a tenant's log keeps. */
export const DEFAULT_DELIVERY_LOG_MAX = 10_000;

/**
 * Keeps a tenant's delivery log at its newest `max` finished deliveries (pending ones are the
 * dispatcher's queue and always stay). Called every `max / 10` finished deliveries, so the log
 * stays within `max` plus a tenth and the delete costs little per delivery.
 */
export function trimDeliveryLog(ctx: EmulatorContext, tenantId: string, max: number): number {
  return ctx
    .sql(
      `DELETE FROM webhook_deliveries WHERE tenant_id = ? AND status <> 'pending' AND id < (
         SELECT id FROM webhook_deliveries WHERE tenant_id = ? AND status <> 'pending' ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    )
    .run(tenantId, tenantId, max - 1).changes;
}

/** Counts finished deliveries per tenant and trims a tenant's log every `max / 10` of them. */
export class DeliveryLogCap {
  readonly #since = new Map<string, number>();
  readonly #every: number;

  constructor(
    private readonly ctx: EmulatorContext,
    readonly max: number = DEFAULT_DELIVERY_LOG_MAX,
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
    trimDeliveryLog(this.ctx, tenantId, this.max);
  }
}
