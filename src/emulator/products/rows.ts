import type { Barcode, BarcodeType, HandlingUnit, Lot, Product } from '../../wms/index.js';
import { bool, type EmulatorContext } from '../context.js';
import { compact, groupBy } from '../shape.js';

export interface ProductRow {
  id: number;
  tenant_id: string;
  external_code: string;
  sku: string;
  description: string;
  abbreviation: string | null;
  observations: string | null;
  with_lots: number;
  with_serial_numbers: number;
  with_expiration_date: number;
  with_security_device: number;
  handling_unit: string | null;
  weight: number | null;
  days_to_notify_expiration_date: number | null;
  /** 'api' (created through the API) or 'wms' (created in the WMS itself: no API external code). */
  origin: 'api' | 'wms';
}

interface BarcodeRow {
  product_id: number;
  code: string;
  type: string;
}

interface LotRow {
  product_id: number;
  code: string;
  active: number;
  expiration_date: string | null;
  with_serial_numbers: number | null;
  with_expiration_date: number | null;
  days_to_notify_expiration_date: number | null;
}

function toLot(row: LotRow): Lot {
  return compact({
    code: row.code,
    active: bool(row.active),
    expirationDate: row.expiration_date,
    withSerialNumbers: row.with_serial_numbers === null ? null : bool(row.with_serial_numbers),
    withExpirationDate: row.with_expiration_date === null ? null : bool(row.with_expiration_date),
    daysToNotifyExpirationDate: row.days_to_notify_expiration_date,
  });
}

function toProduct(row: ProductRow, barcodes: Barcode[], lots: Lot[]): Product {
  return compact({
    externalCode: row.external_code,
    active: true,
    description: row.description,
    code: row.sku,
    abbreviation: row.abbreviation,
    observations: row.observations,
    withLots: bool(row.with_lots),
    withSerialNumbers: bool(row.with_serial_numbers),
    withExpirationDate: bool(row.with_expiration_date),
    withSecurityDevice: bool(row.with_security_device),
    handlingUnit: row.handling_unit as HandlingUnit | null,
    weight: row.weight,
    barcodes,
    lots,
    daysToNotifyExpirationDate: row.days_to_notify_expiration_date,
  });
}

/** Products as the API answers them, barcodes and lots loaded in one query each. */
export function productDtos(ctx: EmulatorContext, rows: readonly ProductRow[]): Product[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const marks = ids.map(() => '?').join(', ');
  const barcodes = ctx
    .sql(`SELECT product_id, code, type FROM product_barcodes WHERE product_id IN (${marks}) ORDER BY id`)
    .all(...ids) as BarcodeRow[];
  const lots = ctx.sql(`SELECT * FROM product_lots WHERE product_id IN (${marks}) ORDER BY id`).all(...ids) as LotRow[];
  const barcodesOf = groupBy(barcodes, (b) => b.product_id);
  const lotsOf = groupBy(lots, (l) => l.product_id);
  return rows.map((row) =>
    toProduct(
      row,
      (barcodesOf.get(row.id) ?? []).map((b) => ({ code: b.code, type: b.type as BarcodeType })),
      (lotsOf.get(row.id) ?? []).map(toLot),
    ),
  );
}

/** A product the API knows (created through it): products created in the WMS itself have no API external code. */
export function findProductRow(ctx: EmulatorContext, tenantId: string, externalCode: string): ProductRow | undefined {
  return ctx
    .sql("SELECT * FROM products WHERE tenant_id = ? AND external_code = ? AND origin = 'api'")
    .get(tenantId, externalCode) as ProductRow | undefined;
}

/** Any product of the tenant, by its API external code or, for products created in the WMS, by its code. */
export function findAnyProductRow(ctx: EmulatorContext, tenantId: string, code: string): ProductRow | undefined {
  return ctx.sql('SELECT * FROM products WHERE tenant_id = ? AND external_code = ?').get(tenantId, code) as
    | ProductRow
    | undefined;
}
