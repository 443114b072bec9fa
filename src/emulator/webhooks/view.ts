import type { WebhookKind } from '../../wms/index.js';
import type { EmulatorContext } from '../context.js';
import type { WebhookCause, WebhookLogEntry, WebhookLogStatus } from './log-entry.js';

export type { WebhookCause, WebhookLogEntry, WebhookLogStatus } from './log-entry.js';

export interface WebhookLogRow {
  id: number;
  tenant_id: string;
  kind: WebhookKind;
  closing_document_id: number | null;
  closing_document_code: string | null;
  url: string;
  body: string;
  cause: WebhookCause;
  origin_id: number | null;
  attempt: number;
  status: WebhookLogStatus;
  not_before: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  created_at: number;
  finished_at: number | null;
}

function parsed(text: string | null): unknown {
  if (text === null || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function webhookLogEntry(row: WebhookLogRow, hasCredentials: boolean): WebhookLogEntry {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (hasCredentials) headers.authorization = 'Basic ***';
  return {
    id: row.id,
    tenant: row.tenant_id,
    kind: row.kind,
    closingDocumentCode: row.closing_document_code,
    cause: row.cause,
    originId: row.origin_id,
    attempt: row.attempt,
    status: row.status,
    resendable: row.status === 'failed' && row.kind !== 'stock-regularization',
    request: { method: 'POST', url: row.url, headers, body: parsed(row.body) },
    response: row.response_status === null ? null : { status: row.response_status, body: parsed(row.response_body) },
    error: row.error,
    durationMs: row.duration_ms,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  };
}

const SELECT = `SELECT w.*, c.code AS closing_document_code FROM webhook_log w
  LEFT JOIN closing_documents c ON c.id = w.closing_document_id`;

export function webhookLogRow(ctx: EmulatorContext, id: number): WebhookLogRow | undefined {
  return ctx.sql(`${SELECT} WHERE w.id = ?`).get(id) as WebhookLogRow | undefined;
}

export interface WebhookLogFilter {
  status?: WebhookLogStatus | undefined;
  kind?: WebhookKind | undefined;
  closingDocumentCode?: string | undefined;
}

/** The tenant's webhook log, oldest first. */
export function listWebhookLogRows(
  ctx: EmulatorContext,
  tenantId: string,
  filter: WebhookLogFilter = {},
): WebhookLogRow[] {
  const conditions = ['w.tenant_id = ?'];
  const params: unknown[] = [tenantId];
  const members: [string, unknown][] = [
    ['w.status', filter.status],
    ['w.kind', filter.kind],
    ['c.code', filter.closingDocumentCode],
  ];
  for (const [column, value] of members) {
    if (value === undefined) continue;
    conditions.push(`${column} = ?`);
    params.push(value);
  }
  return ctx.sql(`${SELECT} WHERE ${conditions.join(' AND ')} ORDER BY w.id`).all(...params) as WebhookLogRow[];
}

export function pendingCount(ctx: EmulatorContext, tenantId?: string): number {
  const row = tenantId
    ? ctx.sql("SELECT count(*) AS n FROM webhook_log WHERE status = 'pending' AND tenant_id = ?").get(tenantId)
    : ctx.sql("SELECT count(*) AS n FROM webhook_log WHERE status = 'pending'").get();
  return (row as { n: number }).n;
}
