import type { WebhookLine } from '../../wms/index.js';
import { round } from '../stock/quantity.js';

export interface MovedQuantity {
  externalCode: string;
  lotCode: string | null;
  expirationDate: string | null;
  serialNumbers: readonly string[] | null;
  quantity: number;
}

/**
 * A close payload's lines: one per product, lot and expiry, in the order first seen, quantities
 * summed and serial numbers gathered. Members without a value are sent as null.
 */
export function webhookLines(moved: readonly MovedQuantity[]): WebhookLine[] {
  const lines = new Map<string, WebhookLine & { serialNumbers: string[] | null }>();
  for (const m of moved) {
    const key = JSON.stringify([m.externalCode, m.lotCode, m.expirationDate]);
    const line = lines.get(key) ?? {
      externalCode: m.externalCode,
      quantity: 0,
      lotCode: m.lotCode,
      expirationDate: m.expirationDate,
      serialNumbers: null,
    };
    line.quantity = round(line.quantity + m.quantity);
    if (m.serialNumbers && m.serialNumbers.length > 0)
      line.serialNumbers = [...(line.serialNumbers ?? []), ...m.serialNumbers];
    lines.set(key, line);
  }
  return [...lines.values()];
}
