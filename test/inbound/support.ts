import { readFileSync } from 'node:fs';
import type { ServiceApp } from '../../src/app.js';
import type { ConnectionConfig } from '../../src/lib/connections.js';
import { WEBHOOK_KINDS, type WebhookKind } from '../../src/wms/webhooks.js';
import { basicAuth } from '../support/service.js';

export { WEBHOOK_KINDS, type WebhookKind };

export const CLOSE_KINDS = WEBHOOK_KINDS.filter((k) => k !== 'stock-regularization');

/** The realistic example of a kind, from fixtures/webhooks/. */
export function fixture(kind: WebhookKind): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../fixtures/webhooks/${kind}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
}

let seq = 0;
/** The fixture of a kind made unique: its own closingDocumentCode (or quantity, for a regularization). */
export function uniquePayload(kind: WebhookKind, tag = 'T'): Record<string, unknown> {
  const p = fixture(kind);
  seq += 1;
  if (kind === 'stock-regularization') return { ...p, quantity: -(seq + Math.random()) };
  return { ...p, closingDocumentCode: `${tag}-${Date.now().toString(36)}-${seq}` };
}

export function authOf(connection: ConnectionConfig, which = 0): string {
  const cred = connection.webhookCredentials[which]!;
  return basicAuth(cred.username, cred.password);
}

export interface PostOptions {
  auth?: string | null;
  contentType?: string | null;
  connection?: string;
}

/** POSTs a webhook through the app, with the connection's credentials unless told otherwise. */
export function postWebhook(
  app: ServiceApp,
  connection: ConnectionConfig,
  kind: string,
  body: unknown,
  options: PostOptions = {},
) {
  const headers: Record<string, string> = {};
  const auth = options.auth === undefined ? authOf(connection) : options.auth;
  if (auth !== null) headers.authorization = auth;
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  return app.request(`/webhooks/${options.connection ?? connection.name}/${kind}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
