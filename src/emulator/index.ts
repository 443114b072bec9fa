/**
 * The WMS emulator: a stateful stand-in for the warehouse management service's external API,
 * with its own control API. Imports only `src/wms/` and `src/lib/`.
 */

export type { ActionResult } from './action.js';
export type { EmulatorContext, Tenant, TenantContext, TenantSettings } from './context.js';
export {
  createEmulator,
  DEFAULT_DEMO_CLIENT,
  type Emulator,
  type EmulatorOptions,
  type EmulatorState,
} from './emulator.js';
export type { EmulatorEventMap, EmulatorEvents } from './events.js';
export type { Fault, FaultInput, FaultRegistry } from './faults/registry.js';
export type { EmulatorApp, EmulatorEnv, EmulatorServices } from './http/env.js';
export { createWmsProduct } from './products/wms-product.js';
export { closeReception, submitReception } from './receptions/close.js';
export { receptionDifferences } from './receptions/differences.js';
export { openReception } from './receptions/open.js';
export { type ReceiveLineInput, receiveLine } from './receptions/receive.js';
export { DEMO_TENANT } from './seed/demo.js';
export { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from './server.js';
export { cancelShippingOrder, dispatchShippingOrder } from './shipping/dispatch.js';
export { openShippingOrder } from './shipping/open.js';
export { type PackingInput, packShippingOrder } from './shipping/pack.js';
export { type PickLineInput, pickShippingOrder } from './shipping/pick.js';
export { queryStock } from './stock/query.js';
export { type RegularizationInput, regularizeStock } from './stock/regularize.js';
export { addStock } from './stock/store.js';
// Warehouse actions as plain functions (the control API calls these), for in-process tests and seeding.
export { controlTenantContext } from './tenants/find.js';
export { createWarehouse, DEFAULT_LOCATION, DEFAULT_WAREHOUSE, listWarehouses } from './warehouses/warehouses.js';
export type { WebhookDispatcher } from './webhooks/dispatcher.js';
export type { WebhookCause, WebhookLogEntry, WebhookLogStatus } from './webhooks/log-entry.js';
export { resendWebhook } from './webhooks/resend.js';
export {
  getWebhookConfig,
  setWebhookConfig,
  WEBHOOK_TIMEOUT_MS,
  type WebhookConfig,
  type WebhookConfigInput,
} from './webhooks/settings.js';
