import { deliveriesQuerySchema } from '../../admin/routes/deliveries-schemas.js';
import type { DeliveryFilter } from '../../store/index.js';
import { connectionBase } from '../nav.js';
import { withQuery } from '../ui/table.js';

/** The list's filters: the admin route's members, the connection taken from the path. */
export const deliveriesPageSchema = deliveriesQuerySchema.pick({
  status: true,
  type: true,
  key: true,
  before: true,
  limit: true,
});
export type DeliveriesQuery = ReturnType<typeof deliveriesPageSchema.parse>;

/** The filter as the store takes it (what the admin route's `deliveryFilter` builds). */
export function deliveriesFilter(connection: string, q: Partial<DeliveriesQuery>): DeliveryFilter {
  return {
    connection,
    ...(q.status ? { status: q.status } : {}),
    ...(q.type ? { type: q.type } : {}),
    ...(q.key ? { orderKey: q.key } : {}),
  };
}

export function deliveriesHref(
  connection: string,
  q: Partial<DeliveriesQuery>,
  extra: Record<string, string | number | undefined> = {},
): string {
  return withQuery(`${connectionBase(connection)}/deliveries`, {
    status: q.status,
    type: q.type,
    key: q.key,
    ...extra,
  });
}

export function deliveryHref(connection: string, id: number): string {
  return `${connectionBase(connection)}/deliveries/${id}`;
}
