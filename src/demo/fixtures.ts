import { readFileSync } from 'node:fs';
import { fromRoot } from '../lib/package-root.js';
import { expectStatus, JsonHttp } from './http.js';

const FIXTURES = `${fromRoot('fixtures', 'erp')}/`;

export interface LoadSummary {
  kind: string;
  queued: number;
  unchanged: number;
  invalid: number;
}

interface BatchAnswer {
  summary: { queued: number; unchanged: number; invalid: number };
}

/**
 * Sends the ERP sample set (fixtures/erp) through the service's own ERP intake, as an ERP would:
 * products, then delivery points, then documents. Loading again is harmless: unchanged records
 * are not pushed again.
 */
export async function loadErpFixtures(serviceUrl: string, erpToken: string): Promise<LoadSummary[]> {
  const erp = new JsonHttp(serviceUrl, { authorization: `Bearer ${erpToken}` });
  const summaries: LoadSummary[] = [];
  for (const kind of ['products', 'delivery-points', 'documents']) {
    const items = JSON.parse(readFileSync(`${FIXTURES}${kind}.json`, 'utf8')) as unknown[];
    const body = expectStatus(await erp.post<BatchAnswer>(`/erp/v1/${kind}:batch`, { items }), 202, `load ${kind}`);
    summaries.push({ kind, ...body.summary });
  }
  return summaries;
}
