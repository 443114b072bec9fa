import { and, type Column, eq, gte, inArray, lt } from 'drizzle-orm';
import type { DeliveryFilter } from './contract.js';

interface FilterColumns {
  id: Column;
  connection: Column;
  status: Column;
  type: Column;
  orderKey: Column;
  createdAt: Column;
}

/** The WHERE of delivery lists, counts and bulk resends (drizzle's operators are the same on both dialects). */
export function deliveryWhere(t: FilterColumns, q: DeliveryFilter & { ids?: readonly number[] }) {
  return and(
    q.ids ? inArray(t.id, [...q.ids]) : undefined,
    q.connection ? eq(t.connection, q.connection) : undefined,
    q.status ? eq(t.status, q.status) : undefined,
    q.type ? eq(t.type, q.type) : undefined,
    q.orderKey ? eq(t.orderKey, q.orderKey) : undefined,
    q.createdFrom ? gte(t.createdAt, q.createdFrom) : undefined,
    q.createdTo ? lt(t.createdAt, q.createdTo) : undefined,
  );
}

/** The first KB of an answer, as kept with its attempt. */
export const RESPONSE_KEEP_BYTES = 1024;
