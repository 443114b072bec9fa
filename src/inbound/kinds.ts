import type { FeedEntryType } from '../store/values.js';
import {
  closeReceptionPayloadSchema,
  closeShippingOrderPayloadSchema,
  stockRegularizationPayloadSchema,
  WEBHOOK_KINDS,
  type WebhookKind,
} from '../wms/webhooks.js';

/**
 * What each webhook URL receives and what it becomes. `flow` groups the kinds that share a payload:
 * reception closes (goods in, ledger +), shipment closes (goods out, ledger −), stock adjustments.
 */
export type KindSpec =
  | { flow: 'reception'; schema: typeof closeReceptionPayloadSchema; feedEntry: FeedEntryType; title: string }
  | { flow: 'shipment'; schema: typeof closeShippingOrderPayloadSchema; feedEntry: FeedEntryType; title: string }
  | { flow: 'stock'; schema: typeof stockRegularizationPayloadSchema; feedEntry: FeedEntryType; title: string };

export const KINDS: Record<WebhookKind, KindSpec> = {
  'reception-close': {
    flow: 'reception',
    schema: closeReceptionPayloadSchema,
    feedEntry: 'reception.closed',
    title: 'Close reception (PURCHASE_ORDER, WAREHOUSE_TRANSFER_IN)',
  },
  'client-return-close': {
    flow: 'reception',
    schema: closeReceptionPayloadSchema,
    feedEntry: 'client_return.closed',
    title: 'Close client return (CLIENT_RETURN)',
  },
  'shipping-order-close': {
    flow: 'shipment',
    schema: closeShippingOrderPayloadSchema,
    feedEntry: 'shipment.closed',
    title: 'Close shipping order (CLIENT_EXPEDITION)',
  },
  'supplier-return-close': {
    flow: 'shipment',
    schema: closeShippingOrderPayloadSchema,
    feedEntry: 'supplier_return.closed',
    title: 'Close supplier return (SUPPLIER_RETURN)',
  },
  'stock-regularization': {
    flow: 'stock',
    schema: stockRegularizationPayloadSchema,
    feedEntry: 'stock.adjusted',
    title: 'Stock regularization (one product and lot)',
  },
};

export function isWebhookKind(value: string): value is WebhookKind {
  return (WEBHOOK_KINDS as readonly string[]).includes(value);
}

export { WEBHOOK_KINDS, type WebhookKind };
