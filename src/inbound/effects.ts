import { z } from 'zod';
import type { ConfirmationType } from '../store/values.js';
import type { InboundEvent, NewLedgerMovement } from '../store/types.js';
import type { CloseReceptionPayload, CloseShippingOrderPayload, StockRegularizationPayload, WebhookLine } from '../wms/webhooks.js';
import { receptionDifferences, type QuantityLine, type ReceptionDifferences } from './differences.js';
import { isWebhookKind, KINDS } from './kinds.js';

/** A stored event's payload, parsed again with its kind's schema and tagged with its flow. */
export type StoredPayload =
  | { flow: 'reception'; payload: CloseReceptionPayload }
  | { flow: 'shipment'; payload: CloseShippingOrderPayload }
  | { flow: 'stock'; payload: StockRegularizationPayload };

export function parseStored(event: Pick<InboundEvent, 'kind' | 'payload'>): StoredPayload {
  if (!isWebhookKind(event.kind)) throw new Error(`unknown event kind "${event.kind}"`);
  const spec = KINDS[event.kind];
  const parsed = spec.schema.safeParse(JSON.parse(event.payload));
  if (!parsed.success) throw new Error(`stored payload no longer valid: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return { flow: spec.flow, payload: parsed.data } as StoredPayload;
}

/**
 * The ordered lines of a document as the outbound room stores it (the spec's Document DTO). Read
 * leniently: only product, lot and quantity matter here.
 */
const orderedDocumentSchema = z.object({
  lines: z.array(z.object({ productExternalCode: z.string(), quantity: z.number(), lotCode: z.string().nullish() })).nullish(),
});

export function orderedLinesOf(documentPayload: unknown): QuantityLine[] | undefined {
  const parsed = orderedDocumentSchema.safeParse(documentPayload);
  return parsed.success ? (parsed.data.lines ?? []) : undefined;
}

export interface Effects {
  type: ConfirmationType;
  /** Derived from the event's business key, so processing an event twice appends one confirmation. */
  dedupeKey: string;
  data: Record<string, unknown>;
  movements: Omit<NewLedgerMovement, 'at'>[];
}

export const confirmationKeyOf = (event: Pick<InboundEvent, 'dedupeKey'>) => `inbound:${event.dedupeKey}`;

/**
 * What an event becomes: the ERP confirmation and the stock ledger movements. Pure. `ordered` is
 * the document's ordered lines when the document is known to the service (reception flows only).
 */
export function effectsOf(event: InboundEvent, stored: StoredPayload, ordered?: QuantityLine[]): Effects {
  if (!isWebhookKind(event.kind)) throw new Error(`unknown event kind "${event.kind}"`);
  const type = KINDS[event.kind].confirmation;
  const common = { eventId: event.id, receivedAt: event.receivedAt.toISOString() };
  const dedupeKey = confirmationKeyOf(event);
  const movement = (i: number | undefined, productExternalCode: string, lotCode: string | null | undefined, quantity: number) => ({
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
      data: { ...common, productExternalCode: p.productExternalCode, lotCode: p.lotCode || null, quantity: p.quantity, movementTime: p.movementTime, warehouse: p.warehouse || null },
      movements: [{ ...movement(undefined, p.productExternalCode, p.lotCode, p.quantity), warehouse: p.warehouse || null, movementTime: new Date(p.movementTime) }],
    };
  }

  const p = stored.payload;
  // Receptions add stock, shipments remove it.
  const sign = stored.flow === 'reception' ? 1 : -1;
  const movements = p.lines.flatMap((l, i) => (l.quantity === 0 ? [] : [movement(i, l.externalCode, l.lotCode, sign * l.quantity)]));
  const document = {
    ...common,
    closingDocumentCode: p.closingDocumentCode,
    documentExternalCode: p.documentExternalCode,
    documentType: p.documentType,
    documentNumbers: p.documentNumber ?? [],
    company: p.company ?? null,
    observations: p.observations ?? null,
    lines: p.lines.map(lineOf),
  };

  if (stored.flow === 'reception') {
    const r = stored.payload;
    const differences: ReceptionDifferences | null = ordered
      ? receptionDifferences(ordered, r.lines.map((l) => ({ productExternalCode: l.externalCode, lotCode: l.lotCode ?? null, quantity: l.quantity })))
      : null;
    return { type, dedupeKey, movements, data: { ...document, originCode: r.originCode ?? null, receptionDate: r.receptionDate ?? null, differences } };
  }

  const s = stored.payload;
  return {
    type,
    dedupeKey,
    movements,
    data: {
      ...document,
      destinationCode: s.destinationCode ?? null,
      deliveryPointExternalCode: s.deliveryPointExternalCode ?? null,
      carrier: s.carrier ?? null,
      deliveryPlace: s.deliveryPlace ?? null,
      packingList: (s.packingList ?? []).map((pack) => ({
        packingCode: pack.packingCode ?? null,
        weight: pack.weight ?? null,
        lines: (pack.lines ?? []).map((l) => ({ productExternalCode: l.externalCode, quantity: l.quantity })),
      })),
    },
  };
}

function lineOf(l: WebhookLine) {
  return {
    productExternalCode: l.externalCode,
    quantity: l.quantity,
    lotCode: l.lotCode || null,
    expirationDate: l.expirationDate ?? null,
    serialNumbers: l.serialNumbers ?? [],
  };
}
