import { z } from 'zod';
import type { FeedEntryData } from '../erp/feed/entry-schemas.js';
import type { InboundEvent, NewLedgerMovement } from '../store/types.js';
import type { FeedEntryType } from '../store/values.js';
import type {
  CanonicalCloseReception,
  CanonicalCloseShipping,
  CanonicalLine,
  CanonicalStockRegularization,
  FieldProblem,
} from '../wms/webhooks-tolerant.js';
import { type QuantityLine, type ReceptionDifferences, receptionDifferences } from './differences.js';
import { isWebhookKind, KINDS } from './kinds.js';
import { readPayload } from './reading.js';

/** A stored event's payload (the latest correction, else the body as received), read and tagged with its flow. */
export type StoredPayload =
  | { flow: 'reception'; payload: CanonicalCloseReception }
  | { flow: 'shipment'; payload: CanonicalCloseShipping }
  | { flow: 'stock'; payload: CanonicalStockRegularization };

export type StoredReading = { ok: true; stored: StoredPayload } | { ok: false; problems: FieldProblem[] };

/** What processing applies: the latest correction when there is one, else the body as received. */
export const effectivePayloadOf = (event: Pick<InboundEvent, 'payload' | 'correction'>): string =>
  event.correction ?? event.payload;

export function readStored(event: Pick<InboundEvent, 'kind' | 'payload' | 'correction'>): StoredReading {
  if (!isWebhookKind(event.kind)) throw new Error(`unknown event kind "${event.kind}"`);
  const read = readPayload(event.kind, effectivePayloadOf(event));
  if (!read.json) return { ok: false, problems: [{ path: '(body)', message: `not valid JSON: ${read.error}` }] };
  if (!read.canonical) return { ok: false, problems: read.problems };
  return { ok: true, stored: { flow: KINDS[event.kind].flow, payload: read.canonical } as StoredPayload };
}

/**
 * The ordered lines of a document as the push room stores it (the spec's Document DTO). Read
 * leniently: only product, lot and quantity matter here.
 */
const orderedDocumentSchema = z.object({
  lines: z
    .array(z.object({ productExternalCode: z.string(), quantity: z.number(), lotCode: z.string().nullish() }))
    .nullish(),
});

export function orderedLinesOf(documentPayload: unknown): QuantityLine[] | undefined {
  const parsed = orderedDocumentSchema.safeParse(documentPayload);
  return parsed.success ? (parsed.data.lines ?? []) : undefined;
}

export interface Effects {
  type: FeedEntryType;
  /** Derived from the event's business key, so processing an event twice appends one feed entry. */
  dedupeKey: string;
  data: Record<string, unknown>;
  movements: Omit<NewLedgerMovement, 'at'>[];
}

export const feedEntryKeyOf = (event: Pick<InboundEvent, 'dedupeKey'>) => `inbound:${event.dedupeKey}`;

/**
 * What an event becomes: the ERP feed entry and the stock ledger movements. Pure. `ordered` is
 * the document's ordered lines when the document is known to the service (reception flows only).
 */
export function effectsOf(event: InboundEvent, stored: StoredPayload, ordered?: QuantityLine[]): Effects {
  if (!isWebhookKind(event.kind)) throw new Error(`unknown event kind "${event.kind}"`);
  const type = KINDS[event.kind].feedEntry;
  const common = { eventId: event.id, receivedAt: event.receivedAt.toISOString() };
  const dedupeKey = feedEntryKeyOf(event);
  const movement = (
    i: number | undefined,
    productExternalCode: string,
    lotCode: string | null | undefined,
    quantity: number,
  ) => ({
    connection: event.connection,
    productExternalCode,
    lotCode: lotCode || null,
    warehouse: null as string | null,
    quantity,
    movementTime: event.receivedAt,
    source: event.kind,
    dedupeKey: i === undefined ? event.dedupeKey : `${event.dedupeKey}#${i}`,
    sourceEventId: event.id,
  });

  if (stored.flow === 'stock') {
    const p = stored.payload;
    return {
      type,
      dedupeKey,
      data: {
        ...common,
        productExternalCode: p.productExternalCode,
        lotCode: p.lotCode,
        quantity: p.quantity,
        movementTime: p.movementTime,
        warehouse: p.warehouse,
      } satisfies FeedEntryData<'stock.adjusted'>,
      movements: [
        {
          ...movement(undefined, p.productExternalCode, p.lotCode, p.quantity),
          warehouse: p.warehouse,
          movementTime: new Date(p.movementTime),
        },
      ],
    };
  }

  const p = stored.payload;
  // Receptions add stock, shipments remove it.
  const sign = stored.flow === 'reception' ? 1 : -1;
  const movements = p.lines.flatMap((l, i) =>
    l.quantity === 0 ? [] : [movement(i, l.externalCode, l.lotCode, sign * l.quantity)],
  );
  const document = {
    ...common,
    closingDocumentCode: p.closingDocumentCode,
    documentExternalCode: p.documentExternalCode,
    documentType: p.documentType,
    documentNumbers: p.documentNumber,
    company: p.company,
    observations: p.observations,
    lines: p.lines.map(lineOf),
  };

  if (stored.flow === 'reception') {
    const r = stored.payload;
    const differences: ReceptionDifferences | null = ordered
      ? receptionDifferences(
          ordered,
          r.lines.map((l) => ({ productExternalCode: l.externalCode, lotCode: l.lotCode, quantity: l.quantity })),
        )
      : null;
    return {
      type,
      dedupeKey,
      movements,
      data: {
        ...document,
        originCode: r.originCode,
        receptionDate: r.receptionDate,
        differences,
      } satisfies FeedEntryData<'reception.closed'>,
    };
  }

  const s = stored.payload;
  return {
    type,
    dedupeKey,
    movements,
    data: {
      ...document,
      destinationCode: s.destinationCode,
      deliveryPointExternalCode: s.deliveryPointExternalCode,
      carrier: s.carrier,
      deliveryPlace: s.deliveryPlace,
      packingList: s.packingList.map((pack) => ({
        packingCode: pack.packingCode,
        weight: pack.weight,
        lines: pack.lines.map((l) => ({ productExternalCode: l.externalCode, quantity: l.quantity })),
      })),
    } satisfies FeedEntryData<'shipment.closed'>,
  };
}

function lineOf(l: CanonicalLine) {
  return {
    productExternalCode: l.externalCode,
    quantity: l.quantity,
    lotCode: l.lotCode,
    expirationDate: l.expirationDate,
    serialNumbers: l.serialNumbers,
  };
}
