import { type FieldProblem, isObject, type Obj, Reader, typeName } from './tolerant-reader.js';
import type { WebhookKind } from './webhooks.js';

export { type FieldProblem, readNumber } from './tolerant-reader.js';

/*
 * The receiver's reading of the three webhook payloads: every form the spec allows, normalised to
 * one canonical shape. The strict schemas of webhooks.ts describe what we (the emulator, the
 * client) write; this is what we accept from a real WMS. Forms accepted (docs/webhooks.md):
 * - `null`, absent and `""` are the same for every member that does not identify the event;
 *   absent arrays are `[]`, absent text `null`;
 * - dates and date-times in the forms of datetime.ts;
 * - numbers as JSON numbers, fractions included, or as a string holding a JSON number ("12.5"):
 *   some serialisers write BigDecimal that way, and it is unambiguous (readNumber, below);
 * - members the spec does not list, at any level, are ignored (the raw body keeps them).
 * Everything else is a problem named by its path; the receiver decides what a problem means
 * (refusal for a close document without a usable closingDocumentCode, quarantine otherwise).
 * Hand-written rather than zod: it runs on every webhook and costs a fraction of a schema parse.
 */

export interface CanonicalLine {
  externalCode: string;
  quantity: number;
  lotCode: string | null;
  expirationDate: string | null;
  serialNumbers: string[];
}

export interface CanonicalCloseDocument {
  closingDocumentCode: string;
  documentNumber: string[];
  documentExternalCode: string | null;
  /** The spec's enum; a value it does not list is passed on as sent. */
  documentType: string | null;
  company: string | null;
  observations: string | null;
  lines: CanonicalLine[];
}

export interface CanonicalCloseReception extends CanonicalCloseDocument {
  originCode: string | null;
  receptionDate: string | null;
}

export interface CanonicalPacking {
  packingCode: string | null;
  weight: number | null;
  lines: { externalCode: string; quantity: number }[];
}

export interface CanonicalCloseShipping extends CanonicalCloseDocument {
  destinationCode: string | null;
  deliveryPointExternalCode: string | null;
  carrier: string | null;
  deliveryPlace: string | null;
  packingList: CanonicalPacking[];
}

export interface CanonicalStockRegularization {
  productExternalCode: string;
  lotCode: string | null;
  quantity: number;
  /** UTC with milliseconds. */
  movementTime: string;
  warehouse: string | null;
}

export type CanonicalPayload = CanonicalCloseReception | CanonicalCloseShipping | CanonicalStockRegularization;

/**
 * `value` is set only when there is no problem. `closingDocumentCode` is the close document's
 * idempotency key when it is usable, whatever else is wrong (undefined for stock regularizations).
 */
export interface WebhookReading<T extends CanonicalPayload = CanonicalPayload> {
  value: T | undefined;
  problems: FieldProblem[];
  closingDocumentCode?: string | undefined;
}

const NO_PRODUCT = 'missing: a line without a product cannot be applied';
const NO_QUANTITY = 'missing: a line without a quantity cannot be applied';

function line(r: Reader, l: Obj, path: string): CanonicalLine {
  return {
    externalCode: r.code(l.externalCode, path, 'externalCode', NO_PRODUCT),
    quantity: r.number(l.quantity, path, 'quantity', NO_QUANTITY) ?? 0,
    lotCode: r.text(l.lotCode, path, 'lotCode'),
    expirationDate: r.date(l.expirationDate, path, 'expirationDate'),
    serialNumbers: r.texts(l.serialNumbers, path, 'serialNumbers'),
  };
}

function closeDocument(r: Reader, p: Obj): CanonicalCloseDocument {
  return {
    closingDocumentCode: r.code(p.closingDocumentCode, '', 'closingDocumentCode', 'missing: it identifies the event'),
    documentNumber: r.texts(p.documentNumber, '', 'documentNumber'),
    documentExternalCode: r.text(p.documentExternalCode, '', 'documentExternalCode'),
    documentType: r.text(p.documentType, '', 'documentType'),
    company: r.text(p.company, '', 'company'),
    observations: r.text(p.observations, '', 'observations'),
    lines: r.objects(p.lines, '', 'lines', 'a line', (item, path) => line(r, item, path)),
  };
}

function finish<T extends CanonicalPayload>(r: Reader, value: T, closingDocumentCode?: string): WebhookReading<T> {
  const reading: WebhookReading<T> = { value: r.problems.length === 0 ? value : undefined, problems: r.problems };
  if (closingDocumentCode !== undefined) reading.closingDocumentCode = closingDocumentCode;
  return reading;
}

function notAnObject(body: unknown): WebhookReading<never> {
  return { value: undefined, problems: [{ path: '(body)', message: `expected a JSON object, got ${typeName(body)}` }] };
}

const usableCode = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export function readCloseReception(body: unknown): WebhookReading<CanonicalCloseReception> {
  if (!isObject(body)) return notAnObject(body);
  const r = new Reader();
  const value: CanonicalCloseReception = closeDocument(r, body) as CanonicalCloseReception;
  value.originCode = r.text(body.originCode, '', 'originCode');
  value.receptionDate = r.date(body.receptionDate, '', 'receptionDate');
  return finish(r, value, usableCode(body.closingDocumentCode));
}

export function readCloseShipping(body: unknown): WebhookReading<CanonicalCloseShipping> {
  if (!isObject(body)) return notAnObject(body);
  const r = new Reader();
  const value = closeDocument(r, body) as CanonicalCloseShipping;
  value.destinationCode = r.text(body.destinationCode, '', 'destinationCode');
  value.deliveryPointExternalCode = r.text(body.deliveryPointExternalCode, '', 'deliveryPointExternalCode');
  value.carrier = r.text(body.carrier, '', 'carrier');
  value.deliveryPlace = r.text(body.deliveryPlace, '', 'deliveryPlace');
  value.packingList = r.objects(body.packingList, '', 'packingList', 'a packing', (item, path) => ({
    packingCode: r.text(item.packingCode, path, 'packingCode'),
    weight: r.number(item.weight, path, 'weight', false),
    lines: r.objects(item.lines, path, 'lines', 'a line', (l, lpath) => ({
      externalCode: r.code(l.externalCode, lpath, 'externalCode', NO_PRODUCT),
      quantity: r.number(l.quantity, lpath, 'quantity', NO_QUANTITY) ?? 0,
    })),
  }));
  return finish(r, value, usableCode(body.closingDocumentCode));
}

export function readStockRegularization(body: unknown): WebhookReading<CanonicalStockRegularization> {
  if (!isObject(body)) return notAnObject(body);
  const r = new Reader();
  return finish(r, {
    productExternalCode: r.code(
      body.productExternalCode,
      '',
      'productExternalCode',
      'missing: a regularization without a product cannot be applied',
    ),
    lotCode: r.text(body.lotCode, '', 'lotCode'),
    quantity:
      r.number(body.quantity, '', 'quantity', 'missing: a regularization without a quantity cannot be applied') ?? 0,
    movementTime: r.dateTime(body.movementTime, 'movementTime', 'missing: the movement cannot be placed in time'),
    warehouse: r.text(body.warehouse, '', 'warehouse'),
  });
}

/** The reading of a kind's payload. */
export function readWebhookPayload(kind: WebhookKind, body: unknown): WebhookReading {
  switch (kind) {
    case 'reception-close':
    case 'client-return-close':
      return readCloseReception(body);
    case 'shipping-order-close':
    case 'supplier-return-close':
      return readCloseShipping(body);
    case 'stock-regularization':
      return readStockRegularization(body);
  }
}
