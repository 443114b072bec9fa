/**
 * The WMS emulator: a stateful stand-in for the warehouse management service's external API,
 * with its own control API. Imports only `src/wms/` and `src/lib/`.
 */
export { createEmulator, DEFAULT_DEMO_CLIENT, type Emulator, type EmulatorOptions, type EmulatorState } from './emulator.js';
export { startEmulatorServer, type EmulatorServer, type EmulatorServerOptions } from './server.js';
export type { EmulatorContext, Tenant, TenantContext, TenantSettings } from './context.js';
export type { EmulatorApp, EmulatorEnv, EmulatorServices } from './http/env.js';
export { DEMO_TENANT } from './seed/demo.js';
