import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { ConnectionConfig } from '../lib/connections.js';
import { FEED_ENTRY_TYPES } from '../store/values.js';

export const DEMO_CONNECTION = 'demo';
export const DEMO_WEBHOOK_USERNAME = 'wms-demo';

const secretsSchema = z.object({
  webhookPassword: z.string().min(8),
  erpApiToken: z.string().min(16),
  // Files written before the console existed have none: one is added on the next start.
  adminToken: z.string().min(16).optional(),
  // Files written before the sample ERP existed have none either.
  erpWebhookSecret: z.string().startsWith('whsec_').optional(),
});
export type DemoSecrets = Required<z.infer<typeof secretsSchema>>;

const newAdminToken = () => `admin-${randomBytes(16).toString('hex')}`;
/** As `wms-sync connections secret` makes them (32 random bytes). */
const newErpSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function demoSecretsFile(dataDir: string): string {
  return join(dataDir, 'demo-connection.json');
}

/**
 * The demo's own secrets (webhook password, ERP token, the console's admin token), generated on
 * the first start and kept next to the data so a restart keeps working with what was printed
 * before. The file is written with mode 0600: it holds secrets.
 */
export function loadOrCreateDemoSecrets(dataDir: string): DemoSecrets {
  const file = demoSecretsFile(dataDir);
  if (existsSync(file)) {
    let stored: unknown;
    try {
      stored = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(
        `${file} is not valid JSON (${(err as Error).message}): fix it, or start over with wms-sync start --fresh`,
      );
    }
    const parsed = secretsSchema.safeParse(stored);
    if (parsed.success) {
      const { adminToken, erpWebhookSecret } = parsed.data;
      if (adminToken && erpWebhookSecret) return { ...parsed.data, adminToken, erpWebhookSecret };
      return writeSecrets(file, {
        ...parsed.data,
        adminToken: adminToken ?? newAdminToken(),
        erpWebhookSecret: erpWebhookSecret ?? newErpSecret(),
      });
    }
  }
  return writeSecrets(file, {
    webhookPassword: randomBytes(12).toString('hex'),
    erpApiToken: `demo-${randomBytes(16).toString('hex')}`,
    adminToken: newAdminToken(),
    erpWebhookSecret: newErpSecret(),
  });
}

function writeSecrets(file: string, secrets: DemoSecrets): DemoSecrets {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}

/**
 * The service side of the demo: the emulator's demo API client, webhooks back to this service;
 * with `erpWebhookUrl` (the sample ERP), every feed event pushed there and close documents
 * acknowledged synchronously, so the sample ERP can refuse one.
 */
export function demoConnection(options: {
  emulatorUrl: string;
  clientId: string;
  clientSecret: string;
  secrets: DemoSecrets;
  erpWebhookUrl?: string;
}): ConnectionConfig {
  return {
    name: DEMO_CONNECTION,
    wms: {
      baseUrl: options.emulatorUrl,
      authMode: 'client',
      clientId: options.clientId,
      clientSecret: options.clientSecret,
    },
    webhookCredentials: [{ username: DEMO_WEBHOOK_USERNAME, password: options.secrets.webhookPassword }],
    erpApiToken: options.secrets.erpApiToken,
    ...(options.erpWebhookUrl
      ? {
          erpWebhook: {
            url: options.erpWebhookUrl,
            secrets: [options.secrets.erpWebhookSecret],
            events: [...FEED_ENTRY_TYPES],
          },
          erpCloseAck: 'sync' as const,
        }
      : { erpCloseAck: 'async' as const }),
  };
}
