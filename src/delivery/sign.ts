import { Webhook } from 'standardwebhooks';

export interface SignedHeaders {
  'content-type': 'application/json';
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Standard Webhooks headers for one message. With two secrets (a rotation) the signature header
 * carries one `v1,…` per secret, space-separated, as the spec allows: a receiver that knows either
 * secret verifies the message, so the ERP can switch at its own pace.
 */
export function signMessage(secrets: readonly string[], messageId: string, at: Date, body: string): SignedHeaders {
  if (secrets.length === 0) throw new Error('signMessage: no secret');
  const signature = secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' ');
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
