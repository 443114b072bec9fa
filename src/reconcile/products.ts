import { retryWithBackoff } from '../lib/backoff.js';
import type { Store } from '../store/index.js';
import type { WmsClient } from '../wms-client/index.js';
import { CodeList } from './code-list.js';
import { type RetryPolicy, wmsRetry } from './stock-query.js';

export type ProductSource = 'wms' | 'synced';

export interface ProductsDeps {
  store: Store;
  client: WmsClient;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
  /** Called for each request made to the WMS. */
  onRequest?: () => void;
}

const PAGE = 1000;

/**
 * The product codes a run checks, deduplicated, in a stable order: every code the WMS lists
 * (endpoint 6), or the ERP's products that wms-sync has synced to it (read a page at a time). The
 * codes are held at once, compactly (see `CodeList`); rows and figures are not.
 */
export async function listProducts(deps: ProductsDeps, connection: string, source: ProductSource): Promise<CodeList> {
  if (source === 'wms') {
    const codes = await retryWithBackoff(() => {
      deps.onRequest?.();
      return deps.client.products.allExternalCodes();
    }, wmsRetry(deps));
    return CodeList.from(codes);
  }
  const codes: string[] = [];
  for (let afterId = 0; ; ) {
    const page = await deps.store.pushes.list({ connection, entity: 'product', state: 'synced', limit: PAGE, afterId });
    for (const record of page) codes.push(record.externalCode);
    if (page.length < PAGE) break;
    afterId = page.at(-1)!.id;
  }
  return CodeList.from(codes);
}
