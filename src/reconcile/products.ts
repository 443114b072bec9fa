import type { Store } from '../store/index.js';
import type { WmsClient } from '../wms-client/index.js';
import { withRetry, type RetryPolicy } from './stock-query.js';

export type ProductSource = 'wms' | 'synced';

export interface ProductsDeps {
  store: Store;
  client: WmsClient;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
}

const PAGE = 1000;

/**
 * The product codes a run checks, deduplicated, in a stable order: every code the WMS lists
 * (endpoint 6), or the ERP's products that wms-sync has synced to it. Codes are small strings, so
 * even 100,000 of them are held at once; rows and figures are not.
 */
export async function listProducts(deps: ProductsDeps, connection: string, source: ProductSource): Promise<{ codes: string[]; requests: number }> {
  if (source === 'wms') {
    let requests = 0;
    const codes = await withRetry(deps, () => deps.client.products.allExternalCodes(), () => void (requests += 1));
    return { codes: [...new Set(codes)], requests };
  }
  const codes: string[] = [];
  for (let afterId = 0; ; ) {
    const page = await deps.store.outbox.list({ connection, entity: 'product', state: 'synced', limit: PAGE, afterId });
    for (const record of page) codes.push(record.externalCode);
    if (page.length < PAGE) break;
    afterId = page.at(-1)!.id;
  }
  return { codes, requests: 0 };
}
