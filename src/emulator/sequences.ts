import type { TenantContext } from './context.js';

/**
 * The WMS's own numbering for what warehouse operations create: receptions (REC), shipping orders
 * (SO), closing documents (GR goods received, GD goods dispatched) and packings (PK), per tenant,
 * series and year. Codes read `<series><year>-<number>`, e.g. `REC2025-3`: no `/`, so they sit in a
 * URL path as they are. Numbers are never reused, not even after a tenant reset.
 */
export type Series = 'REC' | 'SO' | 'GR' | 'GD' | 'PK';

export interface Numbered {
  series: Series;
  year: number;
  number: number;
  code: string;
}

export function nextNumber(ctx: TenantContext, series: Series): Numbered {
  const year = ctx.clock.now().getUTCFullYear();
  const { last } = ctx
    .sql(
      `INSERT INTO sequences (tenant_id, series, year, last) VALUES (?, ?, ?, 1)
       ON CONFLICT (tenant_id, series, year) DO UPDATE SET last = last + 1 RETURNING last`,
    )
    .get(ctx.tenant.id, series, year) as { last: number };
  return { series, year, number: last, code: `${series}${year}-${last}` };
}
