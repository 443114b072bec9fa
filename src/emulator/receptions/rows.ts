import type { ReceptionStatus } from '../../wms/index.js';
import type { EmulatorContext, TenantContext } from '../context.js';
import type { DocumentRow } from '../documents/rows.js';
import { ControlError } from '../errors.js';

export interface ReceptionRow {
  id: number;
  tenant_id: string;
  code: string;
  status: ReceptionStatus;
  warehouse_id: number;
  observations: string | null;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
}

export interface ReceptionLineRow {
  id: number;
  reception_id: number;
  document_id: number;
  product_external_code: string;
  product_id: number | null;
  lot_code: string | null;
  expiration_date: string | null;
  serial_numbers: string | null;
  quantity: number;
  location: string;
  in_containers: number;
}

export function findReceptionRow(ctx: EmulatorContext, tenantId: string, code: string): ReceptionRow | undefined {
  return ctx.sql('SELECT * FROM receptions WHERE tenant_id = ? AND code = ?').get(tenantId, code) as
    | ReceptionRow
    | undefined;
}

/** For control actions: 404 `reception_not_found`. */
export function mustFindReception(ctx: TenantContext, code: string): ReceptionRow {
  const row = findReceptionRow(ctx, ctx.tenant.id, code);
  if (!row)
    throw new ControlError(
      404,
      'reception_not_found',
      `Reception "${code}" does not exist in tenant "${ctx.tenant.id}"`,
    );
  return row;
}

export function receptionDocuments(ctx: EmulatorContext, receptionId: number): DocumentRow[] {
  return ctx
    .sql(
      'SELECT d.* FROM reception_documents rd JOIN documents d ON d.id = rd.document_id WHERE rd.reception_id = ? ORDER BY rd.position',
    )
    .all(receptionId) as DocumentRow[];
}

export function receptionLines(ctx: EmulatorContext, receptionId: number): ReceptionLineRow[] {
  return ctx
    .sql('SELECT * FROM reception_lines WHERE reception_id = ? ORDER BY id')
    .all(receptionId) as ReceptionLineRow[];
}

export function setReceptionStatus(ctx: EmulatorContext, receptionId: number, status: ReceptionStatus): void {
  ctx.sql('UPDATE receptions SET status = ?, updated_at = ? WHERE id = ?').run(status, ctx.clock.nowMs(), receptionId);
}

export const serialsOf = (text: string | null): string[] | null =>
  text === null ? null : (JSON.parse(text) as string[]);
