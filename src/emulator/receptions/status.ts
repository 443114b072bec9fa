import type { EmulatorContext } from '../context.js';
import { setReceptionStatus } from './rows.js';

/**
 * CLOSING lasts while the reception's close webhooks are being delivered; once none of its
 * closing documents is pending (delivered, failed after its retries, or nothing to send), the
 * reception is CLOSED.
 */
export function settleReception(ctx: EmulatorContext, receptionId: number): void {
  const row = ctx
    .sql(
      `SELECT r.status, (SELECT count(*) FROM closing_documents c WHERE c.reception_id = r.id AND c.integration_status = 'pending') AS pending
       FROM receptions r WHERE r.id = ?`,
    )
    .get(receptionId) as { status: string; pending: number } | undefined;
  if (row?.status === 'CLOSING' && row.pending === 0) setReceptionStatus(ctx, receptionId, 'CLOSED');
}
