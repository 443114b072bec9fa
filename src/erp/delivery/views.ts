import type { Delivery, DeliveryAttempt, DeliveryFilter, Store } from '../../store/index.js';
import { type ErpFeedEntry, toErpFeedEntry } from '../feed/read.js';
import { webhookIdOf } from './webhook-id.js';

/*
 * The operators' read model of ERP deliveries, shared by the admin API and the CLI, and the
 * resend actions both call.
 */

export interface DeliverySummary {
  id: number;
  connection: string;
  webhookId: string;
  /** The feed entry's id (the cursor of GET /erp/v1/feed). */
  feedEntryId: number;
  type: Delivery['type'];
  orderKey: string;
  status: Delivery['status'];
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
}

export interface AttemptView {
  id: number;
  at: string;
  outcome: DeliveryAttempt['outcome'];
  status: number | null;
  latencyMs: number;
  response: string | null;
  error: string | null;
  probe: boolean;
}

export interface DeliveryDetail {
  delivery: DeliverySummary;
  /** The JSON body the ERP receives; null when retention pruned the feed entry. */
  entry: ErpFeedEntry | null;
  attempts: AttemptView[];
}

export interface DeliveryPage {
  deliveries: DeliverySummary[];
  total: number;
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
}

export function deliverySummary(d: Delivery): DeliverySummary {
  return {
    id: d.id,
    connection: d.connection,
    webhookId: webhookIdOf(d.connection, d.feedEntryId),
    feedEntryId: d.feedEntryId,
    type: d.type,
    orderKey: d.orderKey,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    deliveredAt: d.deliveredAt ? d.deliveredAt.toISOString() : null,
  };
}

function attemptView(a: DeliveryAttempt): AttemptView {
  return {
    id: a.id,
    at: a.at.toISOString(),
    outcome: a.outcome,
    status: a.status,
    latencyMs: a.latencyMs,
    response: a.response,
    error: a.error,
    probe: a.probe,
  };
}

export async function listDeliveries(
  store: Store,
  filter: DeliveryFilter,
  page: { limit: number; before?: number | undefined },
): Promise<DeliveryPage> {
  const [rows, total] = await Promise.all([
    store.erpDeliveries.list({ ...filter, limit: page.limit, ...(page.before ? { beforeId: page.before } : {}) }),
    store.erpDeliveries.count(filter),
  ]);
  return {
    deliveries: rows.map(deliverySummary),
    total,
    nextBefore: rows.length === page.limit ? rows.at(-1)!.id : null,
  };
}

export async function deliveryDetail(store: Store, id: number): Promise<DeliveryDetail | undefined> {
  const d = await store.erpDeliveries.get(id);
  if (!d) return undefined;
  const [entry, attempts] = await Promise.all([
    store.feed.get(d.connection, d.feedEntryId),
    store.erpDeliveries.attemptsOf(id),
  ]);
  return {
    delivery: deliverySummary(d),
    entry: entry ? toErpFeedEntry(entry) : null,
    attempts: attempts.map(attemptView),
  };
}

export type ResendOne = { ok: true; delivery: DeliverySummary } | { ok: false; reason: 'not_found' | 'pending' };

/**
 * Sends one delivery again on a fresh schedule: a dead one, or a delivered one (an ERP that lost
 * it); the same webhook-id, so an ERP that has it already can drop the repeat. A pending one is
 * refused: it is on its way.
 */
export async function resendOne(store: Store, id: number, at: Date): Promise<ResendOne> {
  const d = await store.erpDeliveries.get(id);
  if (!d) return { ok: false, reason: 'not_found' };
  if (d.status === 'pending') return { ok: false, reason: 'pending' };
  await store.erpDeliveries.resend({ ids: [id] }, at, 1, ['dead', 'delivered']);
  return { ok: true, delivery: deliverySummary((await store.erpDeliveries.get(id))!) };
}

/** Most deliveries one bulk resend puts back (an operator repeats it for more). */
export const RESEND_MAX = 10_000;

/** Sends every dead delivery that matches again (oldest first, at most RESEND_MAX); `dryRun` only counts. */
export async function resendDead(
  store: Store,
  filter: Omit<DeliveryFilter, 'status'>,
  at: Date,
  dryRun: boolean,
): Promise<{ matched: number; resent: number; dryRun: boolean }> {
  const matched = await store.erpDeliveries.count({ ...filter, status: 'dead' });
  if (dryRun) return { matched, resent: 0, dryRun };
  const ids = await store.erpDeliveries.resend({ ...filter, status: 'dead' }, at, RESEND_MAX, ['dead']);
  return { matched, resent: ids.length, dryRun };
}

/** A connection's circuit breaker as operators read it: closed (sending) or open (one probe per interval). */
export interface BreakerView {
  connection: string;
  state: 'closed' | 'open';
  /** Failures in a row since the last success. */
  failures: number;
  openedAt: string | null;
  nextProbeAt: string | null;
}

/** The breaker of a connection's ERP endpoint; closed when no delivery has failed yet. */
export async function breakerOf(store: Store, connection: string): Promise<BreakerView> {
  const row = (await store.erpDeliveries.breakers()).find((b) => b.connection === connection);
  return {
    connection,
    state: row?.state ?? 'closed',
    failures: row?.failures ?? 0,
    openedAt: row?.openedAt ? row.openedAt.toISOString() : null,
    nextProbeAt: row?.state === 'open' && row.nextProbeAt ? row.nextProbeAt.toISOString() : null,
  };
}
