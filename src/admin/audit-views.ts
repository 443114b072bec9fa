import { z } from '@hono/zod-openapi';
import type { AuditEntry, AuditQuery, Store } from '../store/index.js';
import { AUDIT_CHANNELS, AUDIT_OUTCOMES } from '../store/values.js';
import { pageQuery } from './routes/params.js';

const instant = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time with offset' });

/** The filters of GET /admin/v1/audit and of the console's audit page. */
export const auditFilterShape = {
  operator: z.string().min(1).max(200).optional().openapi({ description: "The operator's name (exact)" }),
  action: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'event.retry, event.override, event.edit, events.retry, push.retry, …' }),
  connection: z.string().min(1).optional().openapi({ description: 'Connection name' }),
  target: z
    .string()
    .min(1)
    .max(300)
    .optional()
    .openapi({ description: 'What was acted on: `event:12`, `delivery:3`, …' }),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  from: instant.optional().openapi({ description: 'At or after this instant' }),
  to: instant.optional().openapi({ description: 'Before this instant' }),
};

export const auditQuerySchema = z.object({ ...auditFilterShape, ...pageQuery.shape });

export const auditEntrySchema = z
  .object({
    id: z.int(),
    at: z.string(),
    operator: z.string(),
    channel: z.enum(AUDIT_CHANNELS),
    action: z.string(),
    connection: z.string().nullable(),
    target: z.string().nullable(),
    outcome: z.enum(AUDIT_OUTCOMES),
    detail: z
      .string()
      .nullable()
      .openapi({ description: "The operator's reason, a bulk action's counts, why it was refused" }),
  })
  .openapi('AdminAuditEntry');

export const auditPageSchema = z
  .object({
    entries: z.array(auditEntrySchema),
    nextBefore: z.int().nullable().openapi({ description: 'Pass as `before` for the next page; null on the last' }),
  })
  .openapi('AdminAuditPage');

export type AuditFilter = z.output<typeof auditQuerySchema>;

export interface AuditView {
  id: number;
  at: string;
  operator: string;
  channel: (typeof AUDIT_CHANNELS)[number];
  action: string;
  connection: string | null;
  target: string | null;
  outcome: (typeof AUDIT_OUTCOMES)[number];
  detail: string | null;
}

const view = (e: AuditEntry): AuditView => ({
  id: e.id,
  at: e.at.toISOString(),
  operator: e.operator,
  channel: e.channel as AuditView['channel'],
  action: e.action,
  connection: e.connection,
  target: e.target,
  outcome: e.outcome,
  detail: e.detail,
});

/** One page of the audit trail, newest first (keyset on the id). */
export async function auditPage(
  store: Store,
  f: AuditFilter,
): Promise<{ entries: AuditView[]; nextBefore: number | null }> {
  const query: AuditQuery = {
    limit: f.limit + 1,
    ...(f.operator ? { operator: f.operator } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.connection ? { connection: f.connection } : {}),
    ...(f.target ? { target: f.target } : {}),
    ...(f.outcome ? { outcome: f.outcome } : {}),
    ...(f.from ? { from: new Date(f.from) } : {}),
    ...(f.to ? { to: new Date(f.to) } : {}),
    ...(f.before ? { beforeId: f.before } : {}),
  };
  const rows = await store.audit.list(query);
  const page = rows.slice(0, f.limit);
  return { entries: page.map(view), nextBefore: rows.length > f.limit ? page[page.length - 1]!.id : null };
}
