import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/index.js';

export interface LineDraft {
  productExternalCode: string;
  quantity: string;
  lotCode: string;
  expirationDate: string;
}

export const EMPTY_LINES = 4;

/** The line rows of the reception form (product, quantity, lot, expiry), filled or blank. */
export function LineRows(props: { lines: LineDraft[]; notice?: string | undefined }) {
  const rows = [...props.lines];
  while (rows.length < EMPTY_LINES)
    rows.push({ productExternalCode: '', quantity: '', lotCode: '', expirationDate: '' });
  return (
    <div class="lines" id="reception-lines">
      {props.notice ? <p class="validation bad">{props.notice}</p> : null}
      <div class="line muted">
        <span>Product</span>
        <span>Quantity</span>
        <span>Lot</span>
        <span>Expiry</span>
      </div>
      {rows.map((l) => (
        <div class="line">
          <input type="text" name="line_product" value={l.productExternalCode} aria-label="Product" />
          <input type="number" name="line_quantity" value={l.quantity} step="any" aria-label="Quantity" />
          <input type="text" name="line_lot" value={l.lotCode} aria-label="Lot" />
          <input type="date" name="line_expiry" value={l.expirationDate} aria-label="Expiry" />
        </div>
      ))}
    </div>
  );
}

interface DocumentLine {
  productExternalCode?: unknown;
  quantity?: unknown;
  lotCode?: unknown;
  supplierLotCode?: unknown;
}

/**
 * The lines a document ordered, as a warehouse would receive them in full: the ordered quantity,
 * the lot the document names (or a new lot for lot-tracked products), an expiry a year ahead for
 * products that track it. The operator may change anything before closing.
 */
export async function linesOfDocument(
  store: Store,
  clock: Clock,
  connection: string,
  document: string,
): Promise<LineDraft[] | undefined> {
  const record = await store.pushes.get(connection, 'document', document);
  if (!record) return undefined;
  const lines = (Array.isArray(record.payload.lines) ? record.payload.lines : []) as DocumentLine[];
  const codes = lines.map((l) => String(l.productExternalCode ?? '')).filter(Boolean);
  const products = new Map(
    (await store.pushes.getMany(connection, 'product', codes)).map((p) => [p.externalCode, p.payload]),
  );
  const today = clock.now().toISOString().slice(0, 10);
  const nextYear = new Date(clock.nowMs() + 365 * 86_400_000).toISOString().slice(0, 10);
  return lines.map((l) => {
    const code = String(l.productExternalCode ?? '');
    const product = products.get(code) ?? {};
    const named =
      typeof l.lotCode === 'string' ? l.lotCode : typeof l.supplierLotCode === 'string' ? l.supplierLotCode : '';
    const lot = product.withLots ? named || `L${today.replace(/-/g, '')}` : '';
    return {
      productExternalCode: code,
      quantity: String(l.quantity ?? ''),
      lotCode: lot,
      expirationDate: lot && product.withExpirationDate ? nextYear : '',
    };
  });
}
