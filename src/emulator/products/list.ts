import { PRODUCT_CRITERIA_FIELDS, type Product } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { absent, anyOf, type CriteriaSql, child, expr, type TextIndex, withText } from '../criteria/field-sql.js';
import { type ListSpec, listFromQuery } from '../criteria/list.js';
import { type ProductRow, productDtos } from './rows.js';

const lot = (sql: string) => child('p.id', 'product_lots l', 'l.product_id', sql);
const barcode = (sql: string) => child('p.id', 'product_barcodes b', 'b.product_id', sql);
const text = (...columns: string[]): TextIndex => ({ table: 'products_text', columns, rowId: 'p.id' });

/** Products with physical stock (existence = bulk + containers above zero) somewhere in the tenant. */
const WITH_STOCK = 'p.id IN (SELECT s.product_id FROM stock s WHERE s.bulk + s.containers > 0)';

/**
 * Product criteria members on the emulator's tables. withStock/isWithStockGroup: existence above
 * zero; warehouseId: stock rows in that warehouse. No minimum stock is modelled, so
 * belowMinimumStock and its group are false.
 */
export function productCriteriaSql(today: string): CriteriaSql<typeof PRODUCT_CRITERIA_FIELDS> {
  return {
    id: expr('p.id'),
    active: expr('1'),
    sku: withText(expr('p.sku'), text('sku')),
    description: withText(expr('p.description'), text('description')),
    abbreviation: withText(expr('p.abbreviation'), text('abbreviation')),
    withLots: expr('p.with_lots'),
    withStock: expr(WITH_STOCK),
    belowMinimumStock: expr('0'),
    withLotsActive: expr('p.id IN (SELECT l.product_id FROM product_lots l WHERE l.active = 1)'),
    withSerialNumbersActive: expr('p.with_serial_numbers'),
    withSerialNumbers: expr('p.with_serial_numbers'),
    withSecurityDevice: expr('p.with_security_device'),
    withExpirationDate: expr('p.with_expiration_date'),
    detailsId: absent,
    warehouseId: child('p.id', 'stock s', 's.product_id', 's.warehouse_id'),
    packagingId: absent,
    serialNumbersId: absent,
    serialNumber: absent,
    lotCode: lot('l.code'),
    lotsId: lot('l.id'),
    barcodesId: barcode('b.id'),
    expirationDate: lot('l.expiration_date'),
    barcodesCode: barcode('b.code'),
    skuOrDescription: withText(anyOf('p.sku', 'p.description'), text('sku', 'description')),
    typeOfBarcode: barcode('b.type'),
    clientId: absent,
    abcClass: absent,
    labelId: absent,
    search: withText(
      anyOf('p.sku', 'p.description', 'p.external_code', 'p.abbreviation'),
      text('sku', 'description', 'external_code', 'abbreviation'),
    ),
    isExpiredGroup: expr('p.id IN (SELECT l.product_id FROM product_lots l WHERE l.expiration_date < ?)', [today]),
    isWithStockGroup: expr(WITH_STOCK),
    isBelowMinimumGroup: expr('0'),
  };
}

const SORTABLE = {
  id: 'p.id',
  externalCode: 'p.external_code',
  sku: 'p.sku',
  code: 'p.sku',
  description: 'p.description',
  abbreviation: 'p.abbreviation',
  handlingUnit: 'p.handling_unit',
  weight: 'p.weight',
  withLots: 'p.with_lots',
  withSerialNumbers: 'p.with_serial_numbers',
  withExpirationDate: 'p.with_expiration_date',
  withSecurityDevice: 'p.with_security_device',
};

/** Endpoint 1: a page of products matching the criteria in the query string. */
export function listProducts(
  ctx: TenantContext,
  requestUrl: string,
): { body: Product[]; headers: Record<string, string> } {
  const spec: ListSpec = {
    entityName: 'product',
    from: 'products p',
    alias: 'p',
    fields: PRODUCT_CRITERIA_FIELDS,
    mapping: productCriteriaSql(ctx.clock.now().toISOString().slice(0, 10)),
    sortable: SORTABLE,
    scope: "p.origin = 'api'",
  };
  const page = listFromQuery<ProductRow>(ctx, spec, requestUrl);
  return { body: productDtos(ctx, page.rows), headers: page.headers };
}
