import type { DocumentType, WebhookKind } from '../../wms/index.js';

/**
 * The spec's destination table. Close reception: PURCHASE_ORDER and WAREHOUSE_TRANSFER_IN to the
 * reception close URL, CLIENT_RETURN to the client return close URL; close shipping order:
 * CLIENT_EXPEDITION to the shipping order close URL, SUPPLIER_RETURN to the supplier return close
 * URL. "Other reception types are not sent"; "Other shipping types are not sent".
 */
export const CLOSE_WEBHOOK_OF: Partial<Record<DocumentType, WebhookKind>> = {
  PURCHASE_ORDER: 'reception-close',
  WAREHOUSE_TRANSFER_IN: 'reception-close',
  CLIENT_RETURN: 'client-return-close',
  CLIENT_EXPEDITION: 'shipping-order-close',
  SUPPLIER_RETURN: 'supplier-return-close',
};

/**
 * Which documents are received and which are shipped (the spec lists the types, not their
 * direction): goods come in on purchase orders, inbound transfers, client returns, webhooks from
 * a factory and production returns; they go out on expeditions, supplier returns, outbound
 * transfers and webhooks to a factory.
 */
export const INBOUND_TYPES: ReadonlySet<DocumentType> = new Set([
  'PURCHASE_ORDER',
  'WAREHOUSE_TRANSFER_IN',
  'CLIENT_RETURN',
  'FACTORY_DELIVERY',
  'PRODUCTION_RETURN',
]);
export const OUTBOUND_TYPES: ReadonlySet<DocumentType> = new Set([
  'CLIENT_EXPEDITION',
  'SUPPLIER_RETURN',
  'WAREHOUSE_TRANSFER_OUT',
  'FACTORY_DELIVER',
]);
