import type { Packing } from '../../wms/index.js';
import type { EmulatorContext } from '../context.js';
import { compact, groupBy, placeholders } from '../shape.js';

export interface PackingRow {
  id: number;
  shipping_order_id: number;
  year: number;
  series: string;
  number: number;
  barcode: string;
  sscc: string;
  gross_weight: number | null;
  net_weight: number | null;
  height: number | null;
  width: number | null;
  depth: number | null;
  volume: number | null;
  parent_id: number | null;
  container_type_code: string | null;
}

export interface PackingLineRow {
  packing_id: number;
  product_id: number;
  product_external_code: string;
  origin: 'api' | 'wms';
  lot_code: string;
  bulk: number;
  containers: number;
}

export function packingRows(ctx: EmulatorContext, shippingOrderId: number): PackingRow[] {
  return ctx.sql('SELECT * FROM packings WHERE shipping_order_id = ? ORDER BY id').all(shippingOrderId) as PackingRow[];
}

export function packingLineRows(ctx: EmulatorContext, packingIds: readonly number[]): Map<number, PackingLineRow[]> {
  if (packingIds.length === 0) return new Map();
  const rows = ctx
    .sql(
      `SELECT l.packing_id, l.product_id, p.external_code AS product_external_code, p.origin, l.lot_code, l.bulk, l.containers
       FROM packing_lines l JOIN products p ON p.id = l.product_id WHERE l.packing_id IN (${placeholders(packingIds.length)}) ORDER BY l.id`,
    )
    .all(...packingIds) as PackingLineRow[];
  return groupBy(rows, (r) => r.packing_id);
}

/**
 * RestAPIClosePackingDTO rows: one per packing and product/lot it holds (bulk and containers of
 * that product), and one without product for a packing that only holds other packings.
 */
export function packingDtos(ctx: EmulatorContext, shippingOrderId: number): Packing[] {
  const packings = packingRows(ctx, shippingOrderId);
  const linesOf = packingLineRows(
    ctx,
    packings.map((p) => p.id),
  );
  return packings.flatMap((p) => {
    const head = {
      id: p.id,
      year: p.year,
      series: p.series,
      number: p.number,
      barcode: p.barcode,
      sscc: p.sscc,
      grossWeight: p.gross_weight,
      netWeight: p.net_weight,
      height: p.height,
      width: p.width,
      depth: p.depth,
      volume: p.volume,
      parent: p.parent_id,
      containerTypeCode: p.container_type_code,
    };
    const lines = linesOf.get(p.id) ?? [];
    if (lines.length === 0) return [compact(head)];
    return lines.map((l) =>
      compact({
        ...head,
        bulk: l.bulk,
        containers: l.containers,
        productExternalCode: l.product_external_code,
        lotCode: l.lot_code || null,
      }),
    );
  });
}
