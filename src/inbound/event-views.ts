import { jsonTextDepth, MAX_PAYLOAD_DEPTH } from '../lib/nul.js';
import type { FeedEntry, InboundAttempt, InboundEvent, InboundEventEdit, InboxFilter, Store } from '../store/types.js';

/*
 * The operators' read model of inbound events, shared by the admin API and the CLI: the list row,
 * the list page (newest first, cursor, total), and the whole story of one event.
 */

export interface EventSummary {
  id: number;
  connection: string;
  kind: string;
  status: InboundEvent['status'];
  businessCode: string | null;
  dedupeKey: string;
  attempts: number;
  duplicates: number;
  error: string | null;
  quarantineReason: string | null;
  corrected: boolean;
  requestId: string | null;
  receivedAt: string;
  processedAt: string | null;
  updatedAt: string;
  /** When retention removed the raw body (INBOUND_RETENTION_DAYS); the row stays as the dedupe key. */
  payloadPrunedAt: string | null;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function eventSummary(e: InboundEvent): EventSummary {
  return {
    id: e.id,
    connection: e.connection,
    kind: e.kind,
    status: e.status,
    businessCode: e.businessCode,
    dedupeKey: e.dedupeKey,
    attempts: e.attempts,
    duplicates: e.duplicates,
    error: e.error,
    quarantineReason: e.quarantineReason,
    corrected: e.correction !== null,
    requestId: e.requestId,
    receivedAt: e.receivedAt.toISOString(),
    processedAt: iso(e.processedAt),
    updatedAt: e.updatedAt.toISOString(),
    payloadPrunedAt: iso(e.payloadPrunedAt),
  };
}

/** The cursor is opaque to clients; today it is the last id of the page. */
export const encodeCursor = (id: number): string => String(id);
export function decodeCursor(cursor: string): number | undefined {
  return /^[1-9]\d{0,15}$/.test(cursor) ? Number(cursor) : undefined;
}

export interface EventPage {
  events: EventSummary[];
  /** Events matching the filter, all pages together. */
  total: number;
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export async function listEvents(
  store: Store,
  filter: InboxFilter,
  page: { limit: number; beforeId?: number | undefined },
): Promise<EventPage> {
  const rows = await store.inbox.list({
    ...filter,
    limit: page.limit + 1,
    ...(page.beforeId ? { beforeId: page.beforeId } : {}),
  });
  const total = await store.inbox.count(filter);
  const events = rows.slice(0, page.limit);
  const more = rows.length > page.limit;
  return {
    events: events.map(eventSummary),
    total,
    nextCursor: more ? encodeCursor(events[events.length - 1]!.id) : null,
  };
}

export interface PayloadView {
  /** The text exactly as received (or as stored by the operator). */
  raw: string;
  /** The JSON value; null when the text is not JSON, or nests deeper than MAX_PAYLOAD_DEPTH (`raw` has it). */
  parsed: unknown;
}

export interface EventDetail {
  event: EventSummary;
  payload: PayloadView;
  correction: PayloadView | null;
  edits: { id: number; actor: string; at: string; changes: InboundEventEdit['changes'] }[];
  attempts: { id: number; at: string; outcome: InboundAttempt['outcome']; error: string | null }[];
  feedEntries: { id: number; type: FeedEntry['type']; createdAt: string; data: Record<string, unknown> }[];
  /** What operators did to it (the audit trail), newest first: retries, overrides with their reasons, edits. */
  operatorActions: {
    id: number;
    at: string;
    operator: string;
    channel: string;
    action: string;
    outcome: string;
    detail: string | null;
  }[];
}

function payloadView(raw: string): PayloadView {
  // A refused body may nest thousands deep; serializing it again would overflow the stack.
  if (jsonTextDepth(raw) > MAX_PAYLOAD_DEPTH) return { raw, parsed: null };
  try {
    return { raw, parsed: JSON.parse(raw) };
  } catch {
    return { raw, parsed: null };
  }
}

export async function eventDetail(store: Store, id: number): Promise<EventDetail | undefined> {
  const event = await store.inbox.get(id);
  if (!event) return undefined;
  const [edits, attempts, feedEntries, actions] = await Promise.all([
    store.inbox.editsOf(id),
    store.inbox.attemptsOf(id),
    store.feed.bySourceEvent(id),
    store.audit.list({ target: `event:${id}`, limit: 100 }),
  ]);
  return {
    event: eventSummary(event),
    payload: payloadView(event.payload),
    correction: event.correction === null ? null : payloadView(event.correction),
    edits: edits.map((e) => ({ id: e.id, actor: e.actor, at: e.createdAt.toISOString(), changes: e.changes })),
    attempts: attempts.map((a) => ({ id: a.id, at: a.createdAt.toISOString(), outcome: a.outcome, error: a.error })),
    feedEntries: feedEntries.map((c) => ({
      id: c.id,
      type: c.type,
      createdAt: c.createdAt.toISOString(),
      data: c.data,
    })),
    operatorActions: actions.map((a) => ({
      id: a.id,
      at: a.at.toISOString(),
      operator: a.operator,
      channel: a.channel,
      action: a.action,
      outcome: a.outcome,
      detail: a.detail,
    })),
  };
}
