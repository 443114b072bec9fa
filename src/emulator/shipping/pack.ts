import type { TenantContext } from '../context.js';
import { ControlError } from '../errors.js';
import { findAnyProductRow } from '../products/rows.js';
import { nextNumber } from '../sequences.js';
import { EPSILON, round } from '../stock/quantity.js';
import { mustFindShippingOrder, pickRows, type ShippingOrderRow, setShippingStatus } from './rows.js';
import { isSscc, ssccFor } from './sscc.js';
import { type ShippingOrderView, shippingOrderView } from './view.js';

export interface PackingLineInput {
  productExternalCode: string;
  quantity: number;
  lotCode?: string | null | undefined;
  inContainers?: boolean | undefined;
}

export interface PackingInput {
  /** A name for this packing within the request, so later packings can name it as `parent`. */
  ref?: string | undefined;
  /** The `ref` of an earlier packing of the request, or the id of a packing of this order. */
  parent?: string | number | undefined;
  barcode?: string | undefined;
  sscc?: string | undefined;
  grossWeight?: number | undefined;
  netWeight?: number | undefined;
  height?: number | undefined;
  width?: number | undefined;
  depth?: number | undefined;
  containerTypeCode?: string | undefined;
  lines?: PackingLineInput[] | undefined;
}

type Packable = Map<string, number>; // `${productId}\0${lot}` → picked − packed

function packable(ctx: TenantContext, order: ShippingOrderRow): Packable {
  const out: Packable = new Map();
  for (const p of pickRows(ctx, order.id))
    out.set(`${p.product_id}\u0000${p.lot_code}`, (out.get(`${p.product_id}\u0000${p.lot_code}`) ?? 0) + p.quantity);
  const packed = ctx
    .sql(
      `SELECT l.product_id, l.lot_code, sum(l.bulk + l.containers) AS q FROM packing_lines l JOIN packings k ON k.id = l.packing_id
       WHERE k.shipping_order_id = ? GROUP BY l.product_id, l.lot_code`,
    )
    .all(order.id) as { product_id: number; lot_code: string; q: number }[];
  for (const p of packed)
    out.set(`${p.product_id}\u0000${p.lot_code}`, round((out.get(`${p.product_id}\u0000${p.lot_code}`) ?? 0) - p.q));
  return out;
}

/** Without `packings`: one packing holding everything picked and not packed yet. */
function everything(ctx: TenantContext, left: Packable): PackingInput[] {
  const lines: PackingLineInput[] = [];
  for (const [key, quantity] of left) {
    if (quantity <= EPSILON) continue;
    const [productId, lot] = key.split('\u0000') as [string, string];
    const { external_code } = ctx.sql('SELECT external_code FROM products WHERE id = ?').get(Number(productId)) as {
      external_code: string;
    };
    lines.push({ productExternalCode: external_code, quantity, lotCode: lot || null });
  }
  return lines.length > 0 ? [{ lines }] : [];
}

/**
 * Packs picked goods into packings (ids, PK year/series/number, barcode, SSCC, weights in kg,
 * dimensions in cm, volume in m³ computed, nested through `parent`). A line without lot takes the
 * picked lots in turn. 400 for more than was picked and not packed yet.
 */
export function packShippingOrder(
  ctx: TenantContext,
  code: string,
  input: { packings?: PackingInput[] | undefined } = {},
): ShippingOrderView {
  return ctx.db.transaction(() => {
    const order = mustFindShippingOrder(ctx, code);
    if (order.status === 'NEW')
      throw new ControlError(409, 'shipping_order_not_picked', `Shipping order "${code}" has nothing picked to pack`);
    if (order.status !== 'PICKING' && order.status !== 'PACKED')
      throw new ControlError(409, 'shipping_order_closed', `Shipping order "${code}" is ${order.status}`);
    const left = packable(ctx, order);
    const packings = input.packings ?? everything(ctx, left);
    if (packings.length === 0)
      throw new ControlError(409, 'nothing_to_pack', `Shipping order "${code}": everything picked is packed`);
    const refs = new Map<string, number>();
    const insertLine = ctx.sql(
      'INSERT INTO packing_lines (packing_id, product_id, lot_code, bulk, containers) VALUES (?, ?, ?, ?, ?)',
    );
    for (const [i, packing] of packings.entries()) {
      let parent: number | null = null;
      if (typeof packing.parent === 'string') {
        parent = refs.get(packing.parent) ?? null;
        if (parent === null)
          throw new ControlError(
            400,
            'unknown_parent',
            `packings[${i}].parent: no earlier packing with ref "${packing.parent}"`,
          );
      } else if (typeof packing.parent === 'number') {
        const own = ctx
          .sql('SELECT id FROM packings WHERE id = ? AND shipping_order_id = ?')
          .get(packing.parent, order.id);
        if (!own)
          throw new ControlError(
            400,
            'unknown_parent',
            `packings[${i}].parent: packing ${packing.parent} is not one of this order's`,
          );
        parent = packing.parent;
      }
      if (packing.sscc !== undefined && !isSscc(packing.sscc))
        throw new ControlError(400, 'invalid_sscc', `packings[${i}].sscc: 18 digits with a valid GS1 check digit`);
      if (packing.ref !== undefined && refs.has(packing.ref))
        throw new ControlError(400, 'invalid_request', `packings[${i}].ref "${packing.ref}" is used twice`);
      const { year, series, number } = nextNumber(ctx, 'PK');
      const volume =
        packing.height !== undefined && packing.width !== undefined && packing.depth !== undefined
          ? round((packing.height * packing.width * packing.depth) / 1e6)
          : null;
      const { lastInsertRowid } = ctx
        .sql(
          `INSERT INTO packings (tenant_id, shipping_order_id, year, series, number, barcode, sscc, gross_weight, net_weight, height, width, depth,
             volume, parent_id, container_type_code, created_at) VALUES (?, ?, ?, ?, ?, '', '', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          ctx.tenant.id,
          order.id,
          year,
          series,
          number,
          packing.grossWeight ?? null,
          packing.netWeight ?? null,
          packing.height ?? null,
          packing.width ?? null,
          packing.depth ?? null,
          volume,
          parent,
          packing.containerTypeCode ?? null,
          ctx.clock.nowMs(),
        );
      const id = Number(lastInsertRowid);
      const barcode = packing.barcode ?? `${series}${year}${String(number).padStart(6, '0')}`;
      ctx.sql('UPDATE packings SET barcode = ?, sscc = ? WHERE id = ?').run(barcode, packing.sscc ?? ssccFor(id), id);
      if (packing.ref !== undefined) refs.set(packing.ref, id);
      for (const [j, line] of (packing.lines ?? []).entries()) {
        const product = findAnyProductRow(ctx, ctx.tenant.id, line.productExternalCode);
        let quantity = line.quantity;
        const lots = [...left.entries()].filter(([key, q]) => {
          const [productId, lot] = key.split('\u0000');
          return Number(productId) === product?.id && q > EPSILON && (!line.lotCode || lot === line.lotCode);
        });
        for (const [key, available] of lots) {
          if (quantity <= EPSILON) break;
          const take = Math.min(available, quantity);
          insertLine.run(
            id,
            product!.id,
            key.split('\u0000')[1],
            line.inContainers ? 0 : take,
            line.inContainers ? take : 0,
          );
          left.set(key, round(available - take));
          quantity = round(quantity - take);
        }
        if (quantity > EPSILON) {
          throw new ControlError(
            400,
            'over_packed',
            `packings[${i}].lines[${j}]: ${line.quantity} of "${line.productExternalCode}"${line.lotCode ? ` lot "${line.lotCode}"` : ''} exceeds what is picked and not packed`,
          );
        }
      }
    }
    setShippingStatus(ctx, order.id, 'PACKED');
    return shippingOrderView(ctx, mustFindShippingOrder(ctx, code));
  })();
}
