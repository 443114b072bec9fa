import { z } from 'zod';
import { FEED_ENTRY_TYPES, type FeedEntryType } from '../store/values.js';
import { ALERT_FORMATS, type AlertTarget, alertTargets, alertUrlList } from './alert-targets.js';

/** One WMS tenant wired to this service: how we call it, how it calls us, how the ERP calls us. */
export interface ConnectionConfig {
  name: string;
  wms: {
    baseUrl: string;
    authMode: 'client' | 'oauth2';
    clientId: string;
    clientSecret: string;
    authUrl?: string;
    audience?: string;
    /** Option B's grant: `client_credentials`, or `password` (the spec's declared flow, scope openid) with the user below. */
    authGrant?: 'client_credentials' | 'password';
    username?: string;
    password?: string;
  };
  /** Basic credentials the WMS sends on webhooks; two at once while rotating. */
  webhookCredentials: { username: string; password: string }[];
  erpApiToken: string;
  /** Pushing the feed to the ERP (docs/erp-delivery.md); absent when the ERP only polls `GET /erp/v1/feed`. */
  erpWebhook?: ErpWebhookConfig;
  /**
   * `async`: the WMS gets its 200 as soon as a close document is stored. `sync`: the receiver first
   * forwards the close document to the ERP (needs `erpWebhook`) and passes on its `{success:false}`.
   */
  erpCloseAck: 'async' | 'sync';
  /** Where this connection's notifications go, besides the service-wide ALERT_WEBHOOK_URL. */
  alertTargets?: AlertTarget[];
}

export interface ErpWebhookConfig {
  url: string;
  /** Standard Webhooks secrets (`whsec_…`); the first is current, a second one signs too while rotating. */
  secrets: string[];
  /** Feed types pushed; every type when the setting is absent. */
  events: FeedEntryType[];
}

const url = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });
/** Standard Webhooks' secret form: `whsec_` then base64 of at least 24 random bytes. */
const webhookSecret = z
  .string()
  .regex(
    /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/,
    'expected a Standard Webhooks secret: "whsec_" then base64 (wms-sync connections secret prints one)',
  );

/** `a,b` in the environment, or a list in CONNECTIONS_FILE; every name must be a feed type. */
const feedTypes = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((t) => t.trim()).filter((t) => t !== ''))
  .pipe(
    z
      .array(z.enum(FEED_ENTRY_TYPES, { error: `expected feed types among ${FEED_ENTRY_TYPES.join(', ')}` }))
      .min(1, 'expected at least one feed type'),
  );

const name = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'expected lowercase letters, digits, "-" or "_" (at most 63)');

/**
 * A connection as written in env variables or in one entry of CONNECTIONS_FILE. The keys are the
 * env names in camelCase (WMS_BASE_URL → wmsBaseUrl) so one description serves both.
 */
export const connectionInputSchema = z
  .object({
    name,
    wmsBaseUrl: url,
    wmsAuthMode: z.enum(['client', 'oauth2']).default('client'),
    wmsClientId: z.string().min(1),
    wmsClientSecret: z.string().min(1),
    wmsAuthUrl: url.optional(),
    wmsAudience: z.string().min(1).optional(),
    wmsAuthGrant: z.enum(['client_credentials', 'password']).default('client_credentials'),
    wmsAuthUsername: z.string().min(1).optional(),
    wmsAuthPassword: z.string().min(1).optional(),
    webhookUsername: z.string().min(1),
    webhookPassword: z.string().min(8, 'expected at least 8 characters'),
    webhookPreviousUsername: z.string().min(1).optional(),
    webhookPreviousPassword: z.string().min(8, 'expected at least 8 characters').optional(),
    erpApiToken: z.string().min(16, 'expected at least 16 characters'),
    erpWebhookUrl: url.optional(),
    erpWebhookSecret: webhookSecret.optional(),
    erpWebhookPreviousSecret: webhookSecret.optional(),
    erpWebhookEvents: feedTypes.optional(),
    erpCloseAck: z.enum(['async', 'sync']).default('async'),
    alertWebhookUrl: alertUrlList.optional(),
    alertWebhookFormat: z.enum(ALERT_FORMATS).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.wmsAuthMode === 'oauth2') {
      if (!c.wmsAuthUrl)
        ctx.addIssue({ code: 'custom', path: ['wmsAuthUrl'], message: 'required when the auth mode is oauth2' });
      if (!c.wmsAudience)
        ctx.addIssue({ code: 'custom', path: ['wmsAudience'], message: 'required when the auth mode is oauth2' });
    }
    if (c.wmsAuthGrant === 'password') {
      if (c.wmsAuthMode !== 'oauth2')
        ctx.addIssue({
          code: 'custom',
          path: ['wmsAuthGrant'],
          message: 'the password grant is option B: needs the auth mode oauth2',
        });
      if (!c.wmsAuthUsername)
        ctx.addIssue({
          code: 'custom',
          path: ['wmsAuthUsername'],
          message: 'required when the auth grant is password',
        });
      if (!c.wmsAuthPassword)
        ctx.addIssue({
          code: 'custom',
          path: ['wmsAuthPassword'],
          message: 'required when the auth grant is password',
        });
    }
    if (c.erpWebhookUrl && !c.erpWebhookSecret) {
      ctx.addIssue({
        code: 'custom',
        path: ['erpWebhookSecret'],
        message: 'required when the ERP webhook URL is set (wms-sync connections secret prints one)',
      });
    }
    for (const key of ['erpWebhookSecret', 'erpWebhookPreviousSecret', 'erpWebhookEvents'] as const) {
      if (c[key] !== undefined && !c.erpWebhookUrl)
        ctx.addIssue({ code: 'custom', path: [key], message: 'needs the ERP webhook URL' });
    }
    if (c.erpCloseAck === 'sync' && !c.erpWebhookUrl) {
      ctx.addIssue({
        code: 'custom',
        path: ['erpCloseAck'],
        message: 'sync needs the ERP webhook URL: the close document is forwarded there',
      });
    }
    if (!!c.webhookPreviousUsername !== !!c.webhookPreviousPassword) {
      ctx.addIssue({
        code: 'custom',
        path: [c.webhookPreviousUsername ? 'webhookPreviousPassword' : 'webhookPreviousUsername'],
        message: 'the previous webhook username and password go together',
      });
    }
  });

export type ConnectionInput = z.input<typeof connectionInputSchema>;

export function toConnectionConfig(c: z.output<typeof connectionInputSchema>): ConnectionConfig {
  const webhookCredentials = [{ username: c.webhookUsername, password: c.webhookPassword }];
  if (c.webhookPreviousUsername && c.webhookPreviousPassword) {
    webhookCredentials.push({ username: c.webhookPreviousUsername, password: c.webhookPreviousPassword });
  }
  return {
    name: c.name,
    wms: {
      baseUrl: c.wmsBaseUrl.replace(/\/+$/, ''),
      authMode: c.wmsAuthMode,
      clientId: c.wmsClientId,
      clientSecret: c.wmsClientSecret,
      ...(c.wmsAuthUrl ? { authUrl: c.wmsAuthUrl.replace(/\/+$/, '') } : {}),
      ...(c.wmsAudience ? { audience: c.wmsAudience } : {}),
      authGrant: c.wmsAuthGrant,
      ...(c.wmsAuthGrant === 'password' ? { username: c.wmsAuthUsername!, password: c.wmsAuthPassword! } : {}),
    },
    webhookCredentials,
    erpApiToken: c.erpApiToken,
    ...(c.erpWebhookUrl && c.erpWebhookSecret
      ? {
          erpWebhook: {
            url: c.erpWebhookUrl,
            secrets: c.erpWebhookPreviousSecret
              ? [c.erpWebhookSecret, c.erpWebhookPreviousSecret]
              : [c.erpWebhookSecret],
            events: c.erpWebhookEvents ?? [...FEED_ENTRY_TYPES],
          },
        }
      : {}),
    erpCloseAck: c.erpCloseAck,
    ...(c.alertWebhookUrl ? { alertTargets: alertTargets(c.alertWebhookUrl, c.alertWebhookFormat ?? 'slack') } : {}),
  };
}

/** Env variable name of each connection key, for messages that name what the user must fix. */
export const CONNECTION_ENV_NAMES: Record<keyof ConnectionInput, string> = {
  name: 'CONNECTION_NAME',
  wmsBaseUrl: 'WMS_BASE_URL',
  wmsAuthMode: 'WMS_AUTH_MODE',
  wmsClientId: 'WMS_CLIENT_ID',
  wmsClientSecret: 'WMS_CLIENT_SECRET',
  wmsAuthUrl: 'WMS_AUTH_URL',
  wmsAudience: 'WMS_AUDIENCE',
  wmsAuthGrant: 'WMS_AUTH_GRANT',
  wmsAuthUsername: 'WMS_AUTH_USERNAME',
  wmsAuthPassword: 'WMS_AUTH_PASSWORD',
  webhookUsername: 'WEBHOOK_USERNAME',
  webhookPassword: 'WEBHOOK_PASSWORD',
  webhookPreviousUsername: 'WEBHOOK_PREVIOUS_USERNAME',
  webhookPreviousPassword: 'WEBHOOK_PREVIOUS_PASSWORD',
  erpApiToken: 'ERP_API_TOKEN',
  erpWebhookUrl: 'ERP_WEBHOOK_URL',
  erpWebhookSecret: 'ERP_WEBHOOK_SECRET',
  erpWebhookPreviousSecret: 'ERP_WEBHOOK_PREVIOUS_SECRET',
  erpWebhookEvents: 'ERP_WEBHOOK_EVENTS',
  erpCloseAck: 'ERP_CLOSE_ACK',
  alertWebhookUrl: 'ALERT_WEBHOOK_URL',
  alertWebhookFormat: 'ALERT_WEBHOOK_FORMAT',
};

/**
 * The names of two connections sharing an ERP token: the token selects the connection, so with a
 * shared one the second connection's ERP would read and change the first's records.
 */
export function sharedErpToken(connections: readonly ConnectionConfig[]): [string, string] | undefined {
  const seen = new Map<string, string>();
  for (const c of connections) {
    const earlier = seen.get(c.erpApiToken);
    if (earlier !== undefined) return [earlier, c.name];
    seen.set(c.erpApiToken, c.name);
  }
  return undefined;
}

export function assertUniqueNames(connections: readonly ConnectionConfig[]): string | undefined {
  const seen = new Set<string>();
  for (const c of connections) {
    if (seen.has(c.name)) return c.name;
    seen.add(c.name);
  }
  return undefined;
}
