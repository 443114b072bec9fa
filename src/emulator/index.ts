/**
 * The WMS emulator: a stateful stand-in for the warehouse management service's external API,
 * with its own control API. Imports only `src/wms/` and `src/lib/`.
 */
export { createEmulator, DEFAULT_DEMO_CLIENT, type Emulator, type EmulatorOptions, type EmulatorState } from './emulator.js';
export { startEmulatorServer, type EmulatorServer, type EmulatorServerOptions } from './server.js';
export type { EmulatorContext, Tenant, TenantContext, TenantSettings } from './context.js';
export type { EmulatorEventMap, EmulatorEvents } from './events.js';
export type { EmulatorApp, EmulatorEnv, EmulatorServices } from './http/env.js';
export { DEMO_TENANT } from './seed/demo.js';
export type { ActionResult } from './action.js';

// Warehouse actions as plain functions (the control API calls these), for in-process tests and seeding.
export { controlTenantContext } from './tenants/find.js';
export { createWarehouse, listWarehouses, DEFAULT_WAREHOUSE, DEFAULT_LOCATION } from './warehouses/warehouses.js';
export { createWmsProduct } from './products/wms-product.js';
export { regularizeStock, type RegularizationInput } from './stock/regularize.js';
export { addStock } from './stock/store.js';
export { queryStock } from './stock/query.js';
export { openReception } from './receptions/open.js';
export { receiveLine, type ReceiveLineInput } from './receptions/receive.js';
export { closeReception, submitReception } from './receptions/close.js';
export { receptionDifferences } from './receptions/differences.js';
export { openShippingOrder } from './shipping/open.js';
export { pickShippingOrder, type PickLineInput } from './shipping/pick.js';
export { packShippingOrder, type PackingInput } from './shipping/pack.js';
export { dispatchShippingOrder, cancelShippingOrder } from './shipping/dispatch.js';
export { setWebhookConfig, getWebhookConfig, WEBHOOK_TIMEOUT_MS, type WebhookConfig, type WebhookConfigInput } from './webhooks/settings.js';
export { resendDelivery } from './webhooks/resend.js';
export type { DeliveryView, DeliveryStatus, DeliveryCause } from './webhooks/delivery.js';
export type { WebhookDispatcher } from './webhooks/dispatcher.js';
export type { Fault, FaultInput, FaultRegistry } from './faults/registry.js';
