import type { CloseShippingOrderPayload, PackingListEntry } from '../../wms/index.js';
import { webhookLines } from '../closing/lines.js';
import type { EmulatorContext } from '../context.js';
import type { DocumentRow } from '../documents/rows.js';
import { serialsOf } from '../receptions/rows.js';
import { round } from '../stock/quantity.js';
import { packingLineRows, packingRows } from './packing-rows.js';
import type { PickRow } from './rows.js';

function lotExpiry(ctx: EmulatorContext, productId: number, lot: string): string | null {
  if (!lot) return null;
  const row = ctx
    .sql('SELECT expiration_date FROM product_lots WHERE product_id = ? AND code = ?')
    .get(productId, lot) as { expiration_date: string | null } | undefined;
  return row?.expiration_date ?? null;
}

/** spec: "packingList describes how items were physically packed: package code, weight and products in each package". */
function packingList(ctx: EmulatorContext, shippingOrderId: number): PackingListEntry[] {
  const packings = packingRows(ctx, shippingOrderId);
  const linesOf = packingLineRows(
    ctx,
    packings.map((p) => p.id),
  );
  return packings.map((p) => {
    const quantities = new Map<string, number>();
    for (const l of linesOf.get(p.id) ?? []) {
      if (l.origin !== 'api') continue;
      quantities.set(
        l.product_external_code,
        round((quantities.get(l.product_external_code) ?? 0) + l.bulk + l.containers),
      );
    }
    return {
      packingCode: p.barcode,
      weight: p.gross_weight,
      lines: [...quantities].map(([externalCode, quantity]) => ({ externalCode, quantity })),
    };
  });
}

/**
 * The close shipping order payload (spec: close reception fields plus destination, webhook
 * point, carrier, webhook place and packingList): what was dispatched, per product, lot and
 * expiry; products without an API external code left out.
 */
export function closeShippingOrderPayload(
  ctx: EmulatorContext,
  input: {
    closingDocumentCode: string;
    document: DocumentRow;
    shippingOrderId: number;
    picks: readonly PickRow[];
    company: string;
    observations: string | null;
  },
): CloseShippingOrderPayload {
  const d = input.document;
  return {
    closingDocumentCode: input.closingDocumentCode,
    documentNumber: [d.document_number],
    documentExternalCode: d.external_code,
    documentType: d.document_type,
    company: input.company,
    observations: input.observations,
    lines: webhookLines(
      input.picks
        .filter((p) => p.origin === 'api' && p.dispatched > 0)
        .map((p) => ({
          externalCode: p.product_external_code,
          lotCode: p.lot_code || null,
          expirationDate: lotExpiry(ctx, p.product_id, p.lot_code),
          serialNumbers: serialsOf(p.serial_numbers),
          quantity: p.dispatched,
        })),
    ),
    destinationCode: d.destination_external_code,
    deliveryPointExternalCode: d.delivery_point_external_code,
    carrier: d.carrier,
    deliveryPlace: d.delivery_place,
    packingList: packingList(ctx, input.shippingOrderId),
  };
}
