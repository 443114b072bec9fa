import { DEMO_WEBHOOK_USERNAME } from './connection.js';
import { expectStatus, JsonHttp } from './http.js';

const KINDS = {
  receptionCloseUrl: 'reception-close',
  clientReturnCloseUrl: 'client-return-close',
  shippingOrderCloseUrl: 'shipping-order-close',
  supplierReturnCloseUrl: 'supplier-return-close',
  stockRegularizationUrl: 'stock-regularization',
} as const;

/**
 * Points the emulator tenant's webhook settings (its "Plugins > REST API > Webhooks") at this
 * service's receiver for `connection`, with the connection's Basic credentials.
 */
export async function wireWebhooks(options: {
  emulatorUrl: string;
  tenant: string;
  serviceUrl: string;
  connection: string;
  /** Basic credentials the emulator sends; the demo connection's user by default. */
  username?: string;
  password: string;
  /** How long the emulator waits for an answer (the spec's 45 s by default). */
  timeoutMs?: number;
  adminToken?: string;
}): Promise<void> {
  const control = new JsonHttp(
    options.emulatorUrl,
    options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {},
  );
  const urls = Object.fromEntries(
    Object.entries(KINDS).map(([member, kind]) => [
      member,
      `${options.serviceUrl}/webhooks/${options.connection}/${kind}`,
    ]),
  );
  expectStatus(
    await control.put(`/_emulator/tenants/${options.tenant}/webhooks`, {
      ...urls,
      username: options.username ?? DEMO_WEBHOOK_USERNAME,
      password: options.password,
      company: 'Demo Foods Lda',
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    }),
    200,
    'configure the emulator webhooks',
  );
}
