import type { WebhookKind } from '../../wms/index.js';
import type { EmulatorContext } from '../context.js';

/** spec: "The receiver should respond within 45 seconds". */
export const WEBHOOK_TIMEOUT_MS = 45_000;

/**
 * A tenant's Plugins > REST API > Webhooks settings: one URL per destination, the Basic
 * credentials sent with every call, and the emulator's test knobs (timeout, automatic retries of
 * close documents, duplicate webhooks). The password is kept as given: it is sent, so it cannot
 * be hashed; the control API never shows it.
 */
export interface WebhookConfig {
  receptionCloseUrl: string | null;
  clientReturnCloseUrl: string | null;
  shippingOrderCloseUrl: string | null;
  supplierReturnCloseUrl: string | null;
  stockRegularizationUrl: string | null;
  username: string | null;
  password: string | null;
  /** The payloads' `company`; the tenant id when not set. */
  company: string | null;
  timeoutMs: number;
  /** Extra attempts after a failed close-document webhook (never for stock regularizations). */
  retries: number;
  retryDelayMs: number;
  /** Identical webhooks sent again after each successful one, to test receivers' idempotency. */
  duplicates: number;
}

export type WebhookConfigInput = Partial<WebhookConfig>;

export const DEFAULT_WEBHOOK_CONFIG: WebhookConfig = {
  receptionCloseUrl: null,
  clientReturnCloseUrl: null,
  shippingOrderCloseUrl: null,
  supplierReturnCloseUrl: null,
  stockRegularizationUrl: null,
  username: null,
  password: null,
  company: null,
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  retries: 0,
  retryDelayMs: 1000,
  duplicates: 0,
};

const URL_OF: Record<WebhookKind, keyof WebhookConfig> = {
  'reception-close': 'receptionCloseUrl',
  'client-return-close': 'clientReturnCloseUrl',
  'shipping-order-close': 'shippingOrderCloseUrl',
  'supplier-return-close': 'supplierReturnCloseUrl',
  'stock-regularization': 'stockRegularizationUrl',
};

export function urlFor(config: WebhookConfig, kind: WebhookKind): string | null {
  return config[URL_OF[kind]] as string | null;
}

export function getWebhookConfig(ctx: EmulatorContext, tenantId: string): WebhookConfig {
  const row = ctx.sql('SELECT config FROM webhook_settings WHERE tenant_id = ?').get(tenantId) as
    | { config: string }
    | undefined;
  return row
    ? { ...DEFAULT_WEBHOOK_CONFIG, ...(JSON.parse(row.config) as WebhookConfigInput) }
    : DEFAULT_WEBHOOK_CONFIG;
}

/** PUT semantics: the whole configuration is replaced; members left out take their defaults. */
export function setWebhookConfig(ctx: EmulatorContext, tenantId: string, input: WebhookConfigInput): WebhookConfig {
  const config = { ...DEFAULT_WEBHOOK_CONFIG, ...input };
  ctx
    .sql(
      'INSERT INTO webhook_settings (tenant_id, config, updated_at) VALUES (?, ?, ?) ON CONFLICT (tenant_id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at',
    )
    .run(tenantId, JSON.stringify(config), ctx.clock.nowMs());
  return config;
}

export type WebhookConfigView = Omit<WebhookConfig, 'password'> & { passwordSet: boolean };

export function webhookConfigView(config: WebhookConfig): WebhookConfigView {
  const { password, ...rest } = config;
  return { ...rest, passwordSet: password !== null };
}
