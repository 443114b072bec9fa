import type { TenantContext } from '../context.js';
import { ControlError } from '../errors.js';
import type { ProductRow } from '../products/rows.js';

export interface TrackedQuantity {
  quantity: number;
  lotCode?: string | null | undefined;
  expirationDate?: string | null | undefined;
  serialNumbers?: readonly string[] | null | undefined;
}

const bad = (code: string, message: string) => new ControlError(400, code, message);

/**
 * What a lot-, expiry- or serial-tracked product needs when goods move: a lot code exactly when
 * the product tracks lots (`anyLot`: may be left out, the stock chooses); an expiration date for a
 * new lot of a product that tracks expiry; one serial number per unit exactly when it tracks
 * serial numbers (unless `serials: false`: regularizations do not name units).
 */
export function checkTracking(
  ctx: TenantContext,
  product: ProductRow,
  input: TrackedQuantity,
  options: { needsExpiry: boolean; anyLot?: boolean; serials?: boolean },
): void {
  const code = product.external_code;
  if (product.with_lots && !input.lotCode && !options.anyLot)
    throw bad('lot_required', `Product "${code}" is lot-tracked: lotCode is required`);
  if (!product.with_lots && input.lotCode)
    throw bad('lot_not_tracked', `Product "${code}" is not lot-tracked: lotCode must be left out`);
  if (options.needsExpiry && product.with_expiration_date && input.lotCode && !input.expirationDate) {
    const lot = ctx
      .sql('SELECT expiration_date FROM product_lots WHERE product_id = ? AND code = ?')
      .get(product.id, input.lotCode) as { expiration_date: string | null } | undefined;
    if (!lot?.expiration_date)
      throw bad(
        'expiration_required',
        `Product "${code}" tracks expiry: expirationDate is required for lot "${input.lotCode}"`,
      );
  }
  if (options.serials === false) return;
  const serials = input.serialNumbers ?? [];
  if (product.with_serial_numbers) {
    if (serials.length !== input.quantity) {
      throw bad(
        'serials_mismatch',
        `Product "${code}" is serialised: give one serial number per unit (${input.quantity}), got ${serials.length}`,
      );
    }
  } else if (serials.length > 0) {
    throw bad('serials_not_tracked', `Product "${code}" is not serialised: serialNumbers must be left out`);
  }
}

/** A lot seen for the first time on a receipt or regularization becomes one of the product's lots. */
export function ensureLot(
  ctx: TenantContext,
  productId: number,
  lotCode: string | null | undefined,
  expirationDate: string | null | undefined,
): void {
  if (!lotCode) return;
  ctx
    .sql(
      `INSERT INTO product_lots (product_id, code, active, expiration_date) VALUES (?, ?, 1, ?)
       ON CONFLICT (product_id, code) DO UPDATE SET expiration_date = coalesce(product_lots.expiration_date, excluded.expiration_date)`,
    )
    .run(productId, lotCode, expirationDate ?? null);
}
