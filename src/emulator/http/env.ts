import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../lib/http.js';
import type { CapacityRegistry } from '../capacity/registry.js';
import type { EmulatorContext, TenantContext } from '../context.js';
import type { FaultRegistry } from '../faults/registry.js';
import type { TokenServiceOptions } from '../tokens/exchange.js';
import type { Principal } from '../tokens/verify.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';

export interface EmulatorEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { principal: Principal };
}

export type EmulatorApp = OpenAPIHono<EmulatorEnv>;

/** What routes are built with: the emulator's context, its settings, webhook sender and faults. */
export interface EmulatorServices {
  ctx: EmulatorContext;
  tokens: TokenServiceOptions;
  adminToken: string | undefined;
  webhooks: WebhookDispatcher;
  faults: FaultRegistry;
  /** Per-tenant rate limit, concurrency and latency of the emulated WMS (off until set). */
  capacity: CapacityRegistry;
}

/** The request's tenant (from its token, set by `bearerAuth`) joined to the emulator context. */
export function requestTenant(services: EmulatorServices, c: { get(key: 'principal'): Principal }): TenantContext {
  return { ...services.ctx, tenant: c.get('principal').tenant };
}
