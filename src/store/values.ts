/** Value sets of the service's own tables (not the WMS's: those live in src/wms/). */

export const INBOUND_STATUSES = ['received', 'processed', 'failed', 'rejected'] as const;
export type InboundStatus = (typeof INBOUND_STATUSES)[number];

export const OUTBOUND_ENTITIES = ['product', 'delivery-point', 'document', 'document-cancel'] as const;
export type OutboundEntity = (typeof OUTBOUND_ENTITIES)[number];

export const OUTBOUND_STATES = ['pending', 'synced', 'failed'] as const;
export type OutboundState = (typeof OUTBOUND_STATES)[number];

export const CONFIRMATION_TYPES = [
  'reception.closed',
  'client_return.closed',
  'shipment.closed',
  'supplier_return.closed',
  'stock.adjusted',
  'stock.drift',
] as const;
export type ConfirmationType = (typeof CONFIRMATION_TYPES)[number];
