import type { DocumentType } from '../../wms/index.js';
import type { TenantContext } from '../context.js';

/** The WMS's own series per document type; its document code is `<series><year>/<number>`. */
export const SERIES: Record<DocumentType, string> = {
  WAREHOUSE_TRANSFER_IN: 'WTI',
  WAREHOUSE_TRANSFER_OUT: 'WTO',
  PURCHASE_ORDER: 'PO',
  CLIENT_RETURN: 'CR',
  SUPPLIER_RETURN: 'SR',
  CLIENT_EXPEDITION: 'CE',
  FACTORY_DELIVER: 'FD',
  FACTORY_DELIVERY: 'FDY',
  PRODUCTION_RETURN: 'PR',
};

export function nextDocumentNumber(
  ctx: TenantContext,
  type: DocumentType,
): { series: string; year: number; number: number; code: string } {
  const series = SERIES[type];
  const year = ctx.clock.now().getUTCFullYear();
  const { last } = ctx
    .sql('SELECT coalesce(max(number), 0) AS last FROM documents WHERE tenant_id = ? AND series = ? AND year = ?')
    .get(ctx.tenant.id, series, year) as { last: number };
  const number = last + 1;
  return { series, year, number, code: `${series}${year}/${number}` };
}
