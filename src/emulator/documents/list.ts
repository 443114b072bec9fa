import { DOCUMENT_CRITERIA_FIELDS, type Document } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { absent, anyOf, type CriteriaSql, child, expr } from '../criteria/field-sql.js';
import { type ListSpec, listFromQuery } from '../criteria/list.js';
import { DOCUMENT_ENTITY, type DocumentRow, documentDtos } from './rows.js';

const pointOf = (column: string, member: string) =>
  `(SELECT x.${member} FROM delivery_points x WHERE x.tenant_id = d.tenant_id AND x.external_code = d.${column})`;

/**
 * Document criteria (ReceptionNoteCriteria) on the emulator's tables. Origin, destination and
 * delivery point descriptions and ids come from the tenant's delivery points with those external
 * codes. receptionsId: receptions the document belongs to; pickingsId: its shipping orders' ids.
 * receptionsIdOrNull and receptionProcessId are not modelled (behave as absent).
 */
export const DOCUMENT_CRITERIA_SQL: CriteriaSql<typeof DOCUMENT_CRITERIA_FIELDS> = {
  id: expr('d.id'),
  year: expr('d.year'),
  series: expr('d.series'),
  number: expr('d.number'),
  codeOrNumberOrReference: anyOf('d.code', 'd.document_number', 'd.reference'),
  code: expr('d.code'),
  originCode: expr('d.origin_external_code'),
  externalCode: expr('d.external_code'),
  status: expr('d.status'),
  priority: absent,
  deliveryDate: expr('substr(d.delivery_date, 1, 10)'),
  documentDate: expr('d.document_date'),
  reference: expr('d.reference'),
  observation: expr('d.observations'),
  originDescription: expr(pointOf('origin_external_code', 'name')),
  destinationDescription: expr(pointOf('destination_external_code', 'name')),
  deliveryPointName: expr(pointOf('delivery_point_external_code', 'name')),
  originId: expr(pointOf('origin_external_code', 'id')),
  destinationId: expr(pointOf('destination_external_code', 'id')),
  deliveryPointId: expr(pointOf('delivery_point_external_code', 'id')),
  deliveryPointAddressId: absent,
  deliveryTarget: expr('d.delivery_place'),
  linesId: child('d.id', 'document_lines dl', 'dl.document_id', 'dl.id'),
  pickingsId: child('d.id', 'shipping_orders so', 'so.document_id', 'so.id'),
  receptionsId: child('d.id', 'reception_documents rd', 'rd.document_id', 'rd.reception_id'),
  receptionsIdOrNull: absent,
  receptionProcessId: absent,
  lastModifiedDate: expr('d.updated_at'),
  search: anyOf('d.code', 'd.external_code', 'd.document_number', 'd.reference'),
  isDoneGroup: expr(`d.status IN ('EXECUTED', 'CANCELLED')`),
  isErrorGroup: expr('0'),
};

const SPEC: ListSpec = {
  entityName: DOCUMENT_ENTITY,
  from: 'documents d',
  alias: 'd',
  fields: DOCUMENT_CRITERIA_FIELDS,
  mapping: DOCUMENT_CRITERIA_SQL,
  sortable: {
    id: 'd.id',
    code: 'd.code',
    externalCode: 'd.external_code',
    documentNumber: 'd.document_number',
    documentType: 'd.document_type',
    status: 'd.status',
    year: 'd.year',
    series: 'd.series',
    number: 'd.number',
    documentDate: 'd.document_date',
    deliveryDate: 'd.delivery_date',
    lastModifiedDate: 'd.updated_at',
    createdDate: 'd.created_at',
  },
};

/** Endpoint 8. */
export function listDocuments(
  ctx: TenantContext,
  requestUrl: string,
): { body: Document[]; headers: Record<string, string> } {
  const page = listFromQuery<DocumentRow>(ctx, SPEC, requestUrl);
  return { body: documentDtos(ctx, page.rows), headers: page.headers };
}
