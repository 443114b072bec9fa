import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import cronParser from 'cron-parser';
import { z } from 'zod';
import { type AdminTokens, parseAdminTokens } from './admin-tokens.js';
import { type AlertTarget, alertTargets, alertUrlList } from './alert-targets.js';
import {
  assertUniqueNames,
  CONNECTION_ENV_NAMES,
  type ConnectionConfig,
  type ConnectionInput,
  connectionInputSchema,
  sharedErpToken,
  toConnectionConfig,
} from './connections.js';
import { isSecretKey } from './redact.js';
import { formatPath } from './zod-issues.js';

/** Raised at boot for a wrong or missing setting; its message is one line naming the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const int = (min: number, max: number) =>
  z.coerce.number({ error: 'expected an integer' }).int('expected an integer').min(min).max(max);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalString = z.string().min(1).optional();
const cronOrOff = (fallback: string) =>
  z
    .string()
    .min(1)
    .refine((v) => v === 'off' || isCron(v), 'expected a cron expression (5 fields, or 6 with seconds) or off')
    .default(fallback);

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** `0,5s,5m,2h`: delays in ms (a bare number is seconds). */
const durationList = z
  .string()
  .regex(
    /^\s*\d+(ms|s|m|h|d)?\s*(,\s*\d+(ms|s|m|h|d)?\s*){0,49}$/,
    'expected at most 50 comma-separated durations such as 0,5s,5m,30m,2h',
  );
const durationsMs = (v: string) =>
  v.split(',').map((part) => {
    const [, n, unit] = /^(\d+)(ms|s|m|h|d)?$/.exec(part.trim())!;
    return Number(n) * DURATION_UNITS[unit ?? 's']!;
  });

/**
 * Every environment variable the service reads, with its default. `.env.example` mirrors this
 * list; a test checks the two agree. Nothing else in the code reads `process.env`.
 */
export const envSchema = z.object({
  PORT: int(0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url({ error: 'expected an http(s) URL' }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL (leave unset for SQLite)')
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lowercase SQL identifier')
    .default('public'),
  DATA_DIR: z.string().min(1).default('./data'),
  SQLITE_FILE: optionalString,
  SQLITE_SYNCHRONOUS: z.enum(['normal', 'full']).default('normal'),
  DATA_MIN_FREE_MB: int(0, 1024 * 1024).default(64),
  DATABASE_POOL_SIZE: int(1, 200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: int(1024, 1024 * 1024 * 1024).default(10 * 1024 * 1024),
  SHUTDOWN_GRACE_MS: int(0, 10 * 60 * 1000).default(10_000),
  WORKER_CONCURRENCY: int(1, 256).default(4),
  WORKER_BATCH_SIZE: int(1, 1000).default(20),
  QUEUE_POLL_INTERVAL_MS: int(10, 60_000).default(1000),
  INBOUND_RETRY_LIMIT: int(0, 100).default(10),
  INBOUND_RETRY_DELAY_SECONDS: int(0, 3600).default(5),
  INBOUND_LEASE_SECONDS: int(1, 86_400).default(300),
  WMS_TIMEOUT_MS: int(100, 10 * 60 * 1000).default(30_000),
  WMS_MAX_CONCURRENCY: int(1, 256).default(64),
  WMS_INITIAL_CONCURRENCY: int(1, 256).default(8),
  PUSH_MAX_ATTEMPTS: int(1, 100).default(8),
  PUSH_RETRY_BASE_MS: int(1, 10 * 60 * 1000).default(1000),
  PUSH_RETRY_MAX_MS: int(1, 24 * 60 * 60 * 1000).default(5 * 60 * 1000),
  PUSH_DEPENDENCY_TIMEOUT_SECONDS: int(1, 7 * 24 * 60 * 60).default(1800),
  RECONCILE_CRON: cronOrOff('0 * * * *'),
  RECONCILE_PRODUCTS: z.enum(['wms', 'synced']).default('wms'),
  RECONCILE_BATCH_SIZE: int(1, 1000).default(100),
  RECONCILE_PARALLELISM: int(1, 32).default(4),
  RECONCILE_SETTLE_SECONDS: int(0, 86_400).default(120),
  CONNECTIONS_FILE: optionalString,
  CONNECTION_NAME: z.string().min(1).default('default'),
  WMS_BASE_URL: optionalString,
  WMS_AUTH_MODE: z.enum(['client', 'oauth2']).default('client'),
  WMS_CLIENT_ID: optionalString,
  WMS_CLIENT_SECRET: optionalString,
  WMS_AUTH_URL: optionalString,
  WMS_AUDIENCE: optionalString,
  WMS_AUTH_GRANT: z.enum(['client_credentials', 'password']).default('client_credentials'),
  WMS_AUTH_USERNAME: optionalString,
  WMS_AUTH_PASSWORD: optionalString,
  WEBHOOK_USERNAME: optionalString,
  WEBHOOK_PASSWORD: optionalString,
  WEBHOOK_PREVIOUS_USERNAME: optionalString,
  WEBHOOK_PREVIOUS_PASSWORD: optionalString,
  ERP_API_TOKEN: optionalString,
  ERP_WEBHOOK_URL: optionalString,
  ERP_WEBHOOK_SECRET: optionalString,
  ERP_WEBHOOK_PREVIOUS_SECRET: optionalString,
  ERP_WEBHOOK_EVENTS: optionalString,
  ERP_CLOSE_ACK: z.enum(['async', 'sync']).default('async'),
  ERP_WEBHOOK_RETRY_SCHEDULE: durationList.default('0,5s,5m,30m,2h,5h,10h,10h'),
  ERP_WEBHOOK_TIMEOUT_MS: int(100, 10 * 60 * 1000).default(15_000),
  ERP_WEBHOOK_CONCURRENCY: int(1, 1024).default(64),
  ERP_WEBHOOK_BREAKER_FAILURES: int(1, 10_000).default(10),
  ERP_WEBHOOK_BREAKER_PROBE_SECONDS: int(1, 86_400).default(5),
  ERP_WEBHOOK_POLL_MS: int(10, 60_000).default(250),
  // Well inside the WMS's 45 s (spec: "The receiver should respond within 45 seconds").
  ERP_CLOSE_ACK_TIMEOUT_MS: int(1, 40_000).default(20_000),
  ALERT_WEBHOOK_URL: alertUrlList.optional(),
  ALERT_WEBHOOK_FORMAT: z.enum(['slack', 'json']).default('slack'),
  ALERT_WEBHOOK_SECRET: optionalString,
  ALERT_WINDOW_SECONDS: int(1, 86_400).default(300),
  ALERT_TOKEN_FAILING_MINUTES: int(1, 1440).default(5),
  ALERT_QUEUE_WAIT_MINUTES: int(1, 1440).default(10),
  ALERT_CHECK_SECONDS: int(1, 3600).default(15),
  ALERT_RETRY_SCHEDULE: durationList.default('0,5s,30s,2m,10m,30m,1h,2h,4h'),
  ALERT_RETENTION_DAYS: int(1, 36_500).default(30),
  ADMIN_TOKEN: z.string().min(16, 'expected at least 16 characters').optional(),
  ADMIN_TOKENS: optionalString,
  OIDC_ISSUER: z.url({ error: 'expected an http(s) URL' }).optional(),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_ALLOWED_DOMAINS: optionalString,
  OIDC_ALLOWED_GROUPS: optionalString,
  OIDC_NAME: z.string().min(1).max(60).default('single sign-on'),
  OIDC_SCOPES: z
    .string()
    .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'expected scopes separated by one space')
    .default('openid email profile'),
  METRICS_TOKEN: z.string().min(16, 'expected at least 16 characters').optional(),
  METRICS_PORT: int(0, 65535).optional(),
  METRICS_HOST: optionalString,
  // The standard OpenTelemetry variables: tracing is on only when an OTLP endpoint is set.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_HEADERS: optionalString,
  OTEL_SERVICE_NAME: z.string().min(1).default('wms-sync'),
  AUTH_FAILURE_LIMIT: int(0, 100_000).default(20),
  AUTH_FAILURE_WINDOW_SECONDS: int(1, 86_400).default(60),
  TRUST_PROXY_HOPS: int(0, 10).default(0),
  INBOUND_RETENTION_DAYS: int(1, 36_500).default(90),
  INBOUND_REJECTED_RETENTION_DAYS: int(1, 36_500).default(30),
  DEDUPE_RETENTION_DAYS: int(1, 36_500).default(400),
  FEED_RETENTION_DAYS: int(1, 36_500).default(180),
  LEDGER_RETENTION_DAYS: int(1, 36_500).default(180),
  RECONCILE_RETENTION_DAYS: int(1, 36_500).default(90),
  PUSH_RETENTION_DAYS: int(1, 36_500).default(365),
  DELIVERY_RETENTION_DAYS: int(1, 36_500).default(30),
  AUDIT_RETENTION_DAYS: int(1, 36_500).default(400),
  PRUNE_CRON: cronOrOff('17 3 * * *'),
  EMULATOR_WEBHOOK_LOG_MAX: int(10, 10_000_000).default(10_000),
  CONSOLE_SESSION_HOURS: int(1, 720).default(12),
  EMULATOR_PORT: int(0, 65535).default(8090),
  EMULATOR_HOST: z.string().min(1).default('127.0.0.1'),
  EMULATOR_ADMIN_TOKEN: optionalString,
  EMULATOR_SIGNING_KEY: optionalString,
  EMULATOR_TOKEN_SERVICE_DISABLED: bool.default(false),
  EMULATOR_DEMO_CLIENT_ID: z.string().min(1).default('demo-client'),
  EMULATOR_DEMO_CLIENT_SECRET: z.string().min(1).default('demo-secret'),
});

export type Env = z.output<typeof envSchema>;

export interface Config {
  env: Env;
  port: number;
  host: string;
  publicUrl: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  database:
    | { kind: 'sqlite'; file: string; synchronous: 'normal' | 'full' }
    | { kind: 'postgres'; url: string; poolSize: number; schema: string };
  dataDir: string;
  /** The free space kept in reserve on the SQLite data directory: below it new webhooks are refused. */
  dataMinFreeBytes: number;
  bodyLimitBytes: number;
  shutdownGraceMs: number;
  worker: { concurrency: number; batchSize: number; pollIntervalMs: number };
  /** Processing of stored webhook events: retries after a failure, and how long a job may run before it counts as stuck. */
  inbound: {
    retryLimit: number;
    retryDelaySeconds: number;
    leaseSeconds: number;
  };
  /** Synchronous close acknowledgement (connections with `erpCloseAck: 'sync'`): how long the ERP may take to decide. */
  erpCloseAck: { timeoutMs: number };
  wms: { timeoutMs: number; maxConcurrency: number; initialConcurrency: number };
  /** Push jobs: attempts per push (WMS errors that can be retried), backoff, and how long a document waits for its references. */
  push: { maxAttempts: number; retryBaseMs: number; retryMaxMs: number; dependencyTimeoutSeconds: number };
  /**
   * Stock reconciliation: `cron` null when scheduled runs are off; `products` = which products a
   * run checks (`wms`: every code endpoint 6 lists; `synced`: the ERP's products synced through wms-sync).
   */
  reconcile: {
    cron: string | null;
    products: 'wms' | 'synced';
    batchSize: number;
    parallelism: number;
    settleSeconds: number;
  };
  connections: ConnectionConfig[];
  /**
   * Pushing the feed to the ERP (connections with `erpWebhook`): `retryScheduleMs[i]` is
   * the delay before attempt i+1 (its length is the number of attempts, jittered in full); a
   * request gives up after `timeoutMs`; `concurrency` requests in flight per process; the breaker
   * opens after `breakerFailures` consecutive failures and probes every `breakerProbeMs`; other
   * processes' new events are found within `pollMs`.
   */
  delivery: {
    retryScheduleMs: number[];
    timeoutMs: number;
    concurrency: number;
    breakerFailures: number;
    breakerProbeMs: number;
    pollMs: number;
  };
  /**
   * Notifications (docs/operations.md#notifications): `targets` receive every connection's alerts
   * and the service's own; a connection's `alertTargets` add to them for its alerts. An alert kind
   * and connection get at most one message per `windowMs`; `checkMs` is how often the states
   * (token requests failing, the queue waiting) are read and due messages are written.
   */
  alerts: {
    targets: AlertTarget[];
    secret: string | undefined;
    windowMs: number;
    tokenFailingMs: number;
    queueWaitMs: number;
    checkMs: number;
    retryScheduleMs: number[];
  };
  /**
   * The operators' API (/admin/v1) and console: off when no operator has a token (`tokens`:
   * ADMIN_TOKEN as "admin" and ADMIN_TOKENS, hashed); console sessions last `sessionHours`.
   */
  admin: { token: string | undefined; sessionHours: number } & AdminTokens;
  /** OpenID Connect sign-in to the console (docs/console.md#sign-in); undefined when OIDC_ISSUER is unset. */
  oidc: OidcConfig | undefined;
  /**
   * `/metrics`: a Bearer token when `token` is set; with `port`, served on a listener of its own
   * (`host`) and no longer on the main port.
   */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /**
   * OpenTelemetry traces over OTLP/HTTP: off when `tracesUrl` is undefined (no endpoint set).
   * `tracesUrl` is the traces endpoint itself (`…/v1/traces` of OTEL_EXPORTER_OTLP_ENDPOINT).
   */
  tracing: { tracesUrl: string | undefined; headers: Record<string, string>; serviceName: string };
  /** Failed authentications per client address (429 over `limit` per window; 0 = off) and how that address is found. */
  authFailures: { limit: number; windowMs: number; trustProxyHops: number };
  /**
   * Days each kind of row is kept (docs/operations.md): raw bodies of processed and of rejected
   * events, dedupe keys, feed entries, ledger movements (rolled into an opening balance),
   * reconciliation runs and items, synced documents and cancels; `cron` null when the daily prune is off.
   */
  retention: {
    inboundDays: number;
    rejectedDays: number;
    dedupeDays: number;
    feedDays: number;
    ledgerDays: number;
    reconcileDays: number;
    pushDays: number;
    deliveryDays: number;
    auditDays: number;
    alertDays: number;
    cron: string | null;
  };
  emulator: {
    port: number;
    host: string;
    adminToken: string | undefined;
    signingKey: string | undefined;
    tokenServiceDisabled: boolean;
    demoClientId: string;
    demoClientSecret: string;
    webhookLogMax: number;
  };
}

/**
 * Who may sign in through the OpenID provider: an operator needs an e-mail in one of
 * `allowedDomains` (when any) and a group in `allowedGroups` (when any); at least one list is set,
 * so that an account at a public provider is never enough by itself.
 */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  allowedDomains: string[];
  allowedGroups: string[];
  /** The sign-in button's label: "Sign in with <name>". */
  name: string;
  scopes: string;
}

type Source = Record<string, string | undefined>;

const commaList = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

function oidcConfig(env: Env): OidcConfig | undefined {
  const fail = (variable: string, message: string) => {
    throw new ConfigError(`Invalid configuration: ${variable}: ${message}`);
  };
  if (!env.OIDC_ISSUER) {
    if (env.OIDC_CLIENT_ID) fail('OIDC_ISSUER', 'required when OIDC_CLIENT_ID is set');
    return undefined;
  }
  if (!env.OIDC_CLIENT_ID) fail('OIDC_CLIENT_ID', 'required when OIDC_ISSUER is set');
  const issuer = new URL(env.OIDC_ISSUER);
  if (issuer.protocol !== 'https:' && !isLoopback(issuer.hostname))
    fail('OIDC_ISSUER', 'expected an https URL (http only on a loopback address)');
  const allowedDomains = commaList(env.OIDC_ALLOWED_DOMAINS).map((d) => d.toLowerCase().replace(/^@/, ''));
  const badDomain = allowedDomains.find(
    (d) => !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(d),
  );
  if (badDomain !== undefined)
    fail('OIDC_ALLOWED_DOMAINS', `expected e-mail domains such as example.com (got "${badDomain}")`);
  const allowedGroups = commaList(env.OIDC_ALLOWED_GROUPS);
  if (allowedDomains.length === 0 && allowedGroups.length === 0)
    fail(
      'OIDC_ALLOWED_DOMAINS',
      'set it or OIDC_ALLOWED_GROUPS: without either, every account at the provider could sign in',
    );
  if (!env.OIDC_SCOPES.split(' ').includes('openid')) fail('OIDC_SCOPES', 'expected the openid scope among them');
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID!,
    clientSecret: env.OIDC_CLIENT_SECRET,
    allowedDomains,
    allowedGroups,
    name: env.OIDC_NAME,
    scopes: env.OIDC_SCOPES,
  };
}

/** 127.0.0.0/8, ::1 and localhost: where a provider may be reached over plain http (tests, a local provider). */
export function isLoopback(hostname: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) || hostname === '[::1]' || hostname === 'localhost';
}

function adminTokens(env: Env): AdminTokens {
  try {
    return parseAdminTokens(env.ADMIN_TOKENS, env.ADMIN_TOKEN);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ADMIN_TOKENS: ${(err as Error).message}`);
  }
}

/** Parses the environment once; throws `ConfigError` with a one-line message on the first problem. */
export function loadConfig(source: Source = process.env): Config {
  const cleaned: Source = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = source[key];
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]);
    const shown = holdsSecret(variable) ? undefined : cleaned[variable];
    throw new ConfigError(`Invalid configuration: ${variable}: ${describe(issue, shown)}`);
  }
  const env = parsed.data;
  const connections = env.CONNECTIONS_FILE ? connectionsFromFile(env.CONNECTIONS_FILE) : connectionFromEnv(env);
  const duplicate = assertUniqueNames(connections);
  if (duplicate)
    throw new ConfigError(`Invalid configuration: CONNECTIONS_FILE: connection name "${duplicate}" appears twice`);
  const shared = sharedErpToken(connections);
  if (shared) {
    throw new ConfigError(
      `Invalid configuration: CONNECTIONS_FILE: connections "${shared[0]}" and "${shared[1]}" have the same erpApiToken; each needs its own`,
    );
  }

  const alerts = alertTargets(env.ALERT_WEBHOOK_URL, env.ALERT_WEBHOOK_FORMAT);
  const jsonTarget = [...alerts, ...connections.flatMap((c) => c.alertTargets ?? [])].some((t) => t.format === 'json');
  if (jsonTarget && !env.ALERT_WEBHOOK_SECRET)
    throw new ConfigError(
      'Invalid configuration: ALERT_WEBHOOK_SECRET: required when notifications go out as json (they are signed; wms-sync connections secret prints one)',
    );
  if (env.ALERT_WEBHOOK_SECRET && !/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/.test(env.ALERT_WEBHOOK_SECRET))
    throw new ConfigError(
      'Invalid configuration: ALERT_WEBHOOK_SECRET: expected a Standard Webhooks secret: "whsec_" then base64 (wms-sync connections secret prints one)',
    );

  return {
    env,
    port: env.PORT,
    host: env.HOST,
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE, schema: env.DATABASE_SCHEMA }
      : {
          kind: 'sqlite',
          file: env.SQLITE_FILE ?? join(env.DATA_DIR, 'wms-sync.db'),
          synchronous: env.SQLITE_SYNCHRONOUS,
        },
    dataDir: env.DATA_DIR,
    dataMinFreeBytes: env.DATA_MIN_FREE_MB * 1024 * 1024,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      batchSize: env.WORKER_BATCH_SIZE,
      pollIntervalMs: env.QUEUE_POLL_INTERVAL_MS,
    },
    inbound: {
      retryLimit: env.INBOUND_RETRY_LIMIT,
      retryDelaySeconds: env.INBOUND_RETRY_DELAY_SECONDS,
      leaseSeconds: env.INBOUND_LEASE_SECONDS,
    },
    erpCloseAck: { timeoutMs: env.ERP_CLOSE_ACK_TIMEOUT_MS },
    wms: {
      timeoutMs: env.WMS_TIMEOUT_MS,
      maxConcurrency: env.WMS_MAX_CONCURRENCY,
      initialConcurrency: Math.min(env.WMS_INITIAL_CONCURRENCY, env.WMS_MAX_CONCURRENCY),
    },
    push: {
      maxAttempts: env.PUSH_MAX_ATTEMPTS,
      retryBaseMs: env.PUSH_RETRY_BASE_MS,
      retryMaxMs: env.PUSH_RETRY_MAX_MS,
      dependencyTimeoutSeconds: env.PUSH_DEPENDENCY_TIMEOUT_SECONDS,
    },
    reconcile: {
      cron: env.RECONCILE_CRON === 'off' ? null : env.RECONCILE_CRON,
      products: env.RECONCILE_PRODUCTS,
      batchSize: env.RECONCILE_BATCH_SIZE,
      parallelism: env.RECONCILE_PARALLELISM,
      settleSeconds: env.RECONCILE_SETTLE_SECONDS,
    },
    connections,
    delivery: {
      retryScheduleMs: durationsMs(env.ERP_WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: env.ERP_WEBHOOK_TIMEOUT_MS,
      concurrency: env.ERP_WEBHOOK_CONCURRENCY,
      breakerFailures: env.ERP_WEBHOOK_BREAKER_FAILURES,
      breakerProbeMs: env.ERP_WEBHOOK_BREAKER_PROBE_SECONDS * 1000,
      pollMs: env.ERP_WEBHOOK_POLL_MS,
    },
    alerts: {
      targets: alerts,
      secret: env.ALERT_WEBHOOK_SECRET,
      windowMs: env.ALERT_WINDOW_SECONDS * 1000,
      tokenFailingMs: env.ALERT_TOKEN_FAILING_MINUTES * 60_000,
      queueWaitMs: env.ALERT_QUEUE_WAIT_MINUTES * 60_000,
      checkMs: env.ALERT_CHECK_SECONDS * 1000,
      retryScheduleMs: durationsMs(env.ALERT_RETRY_SCHEDULE),
    },
    admin: { token: env.ADMIN_TOKEN, ...adminTokens(env), sessionHours: env.CONSOLE_SESSION_HOURS },
    oidc: oidcConfig(env),
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT, host: env.METRICS_HOST ?? env.HOST },
    tracing: {
      tracesUrl:
        env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
        (env.OTEL_EXPORTER_OTLP_ENDPOINT
          ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`
          : undefined),
      headers: otlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
      serviceName: env.OTEL_SERVICE_NAME,
    },
    authFailures: {
      limit: env.AUTH_FAILURE_LIMIT,
      windowMs: env.AUTH_FAILURE_WINDOW_SECONDS * 1000,
      trustProxyHops: env.TRUST_PROXY_HOPS,
    },
    retention: {
      inboundDays: env.INBOUND_RETENTION_DAYS,
      rejectedDays: env.INBOUND_REJECTED_RETENTION_DAYS,
      dedupeDays: env.DEDUPE_RETENTION_DAYS,
      feedDays: env.FEED_RETENTION_DAYS,
      ledgerDays: env.LEDGER_RETENTION_DAYS,
      reconcileDays: env.RECONCILE_RETENTION_DAYS,
      pushDays: env.PUSH_RETENTION_DAYS,
      deliveryDays: env.DELIVERY_RETENTION_DAYS,
      auditDays: env.AUDIT_RETENTION_DAYS,
      alertDays: env.ALERT_RETENTION_DAYS,
      cron: env.PRUNE_CRON === 'off' ? null : env.PRUNE_CRON,
    },
    emulator: {
      port: env.EMULATOR_PORT,
      host: env.EMULATOR_HOST,
      adminToken: env.EMULATOR_ADMIN_TOKEN,
      signingKey: env.EMULATOR_SIGNING_KEY,
      tokenServiceDisabled: env.EMULATOR_TOKEN_SERVICE_DISABLED,
      demoClientId: env.EMULATOR_DEMO_CLIENT_ID,
      demoClientSecret: env.EMULATOR_DEMO_CLIENT_SECRET,
      webhookLogMax: env.EMULATOR_WEBHOOK_LOG_MAX,
    },
  };
}

function isCron(value: string): boolean {
  if (value.trim().split(/\s+/).length < 5) return false;
  try {
    cronParser.parseExpression(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a setting's value may be a secret (a token, password, secret, key, or a database URL
 * with its password): a configuration error then names the setting and the rule, never the value.
 */
export function holdsSecret(variable: string): boolean {
  return isSecretKey(variable) || /(?:KEY|DATABASE_URL)$/.test(variable);
}

function describe(issue: z.core.$ZodIssue, received: string | undefined): string {
  if (received === undefined && issue.code === 'invalid_type') return 'required';
  const shown =
    received === undefined ? '' : ` (got "${received.length > 40 ? `${received.slice(0, 40)}…` : received}")`;
  return `${issue.message}${shown}`;
}

function connectionFromEnv(env: Env): ConnectionConfig[] {
  const wmsKeys = [
    'WMS_BASE_URL',
    'WMS_CLIENT_ID',
    'WMS_CLIENT_SECRET',
    'WEBHOOK_USERNAME',
    'WEBHOOK_PASSWORD',
    'ERP_API_TOKEN',
  ] as const;
  if (!wmsKeys.some((k) => env[k] !== undefined)) return [];
  const input: Record<keyof ConnectionInput, string | undefined> = {
    name: env.CONNECTION_NAME,
    wmsBaseUrl: env.WMS_BASE_URL,
    wmsAuthMode: env.WMS_AUTH_MODE,
    wmsClientId: env.WMS_CLIENT_ID,
    wmsClientSecret: env.WMS_CLIENT_SECRET,
    wmsAuthUrl: env.WMS_AUTH_URL,
    wmsAudience: env.WMS_AUDIENCE,
    wmsAuthGrant: env.WMS_AUTH_GRANT,
    wmsAuthUsername: env.WMS_AUTH_USERNAME,
    wmsAuthPassword: env.WMS_AUTH_PASSWORD,
    webhookUsername: env.WEBHOOK_USERNAME,
    webhookPassword: env.WEBHOOK_PASSWORD,
    webhookPreviousUsername: env.WEBHOOK_PREVIOUS_USERNAME,
    webhookPreviousPassword: env.WEBHOOK_PREVIOUS_PASSWORD,
    erpApiToken: env.ERP_API_TOKEN,
    erpWebhookUrl: env.ERP_WEBHOOK_URL,
    erpWebhookSecret: env.ERP_WEBHOOK_SECRET,
    erpWebhookPreviousSecret: env.ERP_WEBHOOK_PREVIOUS_SECRET,
    erpWebhookEvents: env.ERP_WEBHOOK_EVENTS,
    erpCloseAck: env.ERP_CLOSE_ACK,
    // From the environment, the one connection's notifications go to ALERT_WEBHOOK_URL (service-wide).
    alertWebhookUrl: undefined,
    alertWebhookFormat: undefined,
  };
  const parsed = connectionInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path[0] as keyof ConnectionInput;
    const variable = CONNECTION_ENV_NAMES[key] ?? String(key);
    const missing = input[key] === undefined && issue.code !== 'custom';
    throw new ConfigError(
      `Invalid configuration: ${variable}: ${missing ? 'required when a connection is configured through the environment' : issue.message}`,
    );
  }
  return [toConnectionConfig(parsed.data)];
}

function connectionsFromFile(file: string): ConnectionConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(
      `Invalid configuration: CONNECTIONS_FILE: cannot read ${file} as JSON (${(err as Error).message})`,
    );
  }
  const parsed = z.array(connectionInputSchema).min(1, 'expected at least one connection').safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: CONNECTIONS_FILE: ${formatPath(issue.path)}: ${issue.message}`);
  }
  return parsed.data.map(toConnectionConfig);
}

/** OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs, comma-separated, values URL-encoded (the OTel spec's form). */
function otlpHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of raw?.split(',') ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}
