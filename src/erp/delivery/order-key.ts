import type { FeedEntryType } from '../../store/values.js';

/**
 * The business key whose events must reach the ERP in feed order: the document (its external
 * code, or the closing document's code when the WMS sent none) for the four close documents, the
 * product and lot for stock events. Events with different keys are delivered in parallel.
 */
export function orderKeyOf(type: FeedEntryType, data: Record<string, unknown>, feedEntryId: number): string {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);
  if (type === 'stock.adjusted' || type === 'stock.drift') {
    const product = text(data.productExternalCode) ?? '';
    return `lot:${product}|${text(data.lotCode) ?? ''}`;
  }
  const document = text(data.documentExternalCode) ?? text(data.closingDocumentCode);
  // An event naming no document orders only with itself.
  return document !== undefined ? `doc:${document}` : `event:${feedEntryId}`;
}
