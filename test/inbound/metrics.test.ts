import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { basicAuth, startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { postWebhook, uniquePayload } from './support.js';

/** Prometheus text: the value of one sample, e.g. `metric{a="b"}`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every((w) => line.includes(w))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('receiver and processing metrics at /metrics', () => {
  let svc: TestService;
  const acme = testConnection('acme');
  const metrics = async () => (await svc.app.request('/metrics')).text();

  beforeAll(async () => {
    svc = await startTestService({
      label: 'wh-metrics',
      connections: [acme],
      env: { QUEUE_POLL_INTERVAL_MS: '50' },
      worker: true,
    });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('counts received, duplicates, rejected, quarantined, auth failures, processed; times acks and processing lag; shows queue depth', async () => {
    const payload = uniquePayload('reception-close');
    await postWebhook(svc.app, acme, 'reception-close', payload);
    await postWebhook(svc.app, acme, 'reception-close', payload);
    await postWebhook(svc.app, acme, 'reception-close', payload);
    await postWebhook(svc.app, acme, 'stock-regularization', { quantity: 1 });
    await postWebhook(svc.app, acme, 'reception-close', { documentExternalCode: 'NO-CODE' });
    await postWebhook(svc.app, acme, 'stock-regularization', '{', { contentType: 'text/plain' });
    await postWebhook(svc.app, acme, 'stock-regularization', uniquePayload('stock-regularization'), {
      auth: basicAuth('wms-acme', 'nope'),
    });
    await until(
      async () => sample(await metrics(), 'wms_sync_inbound_processed_total', { kind: 'reception-close' }) === 1,
    );

    const text = await metrics();
    const c = { connection: 'acme' };
    expect(sample(text, 'wms_sync_webhooks_received_total', { ...c, kind: 'reception-close' })).toBe(1);
    expect(sample(text, 'wms_sync_webhooks_duplicates_total', { ...c, kind: 'reception-close' })).toBe(2);
    expect(
      sample(text, 'wms_sync_webhooks_rejected_total', { ...c, kind: 'reception-close', reason: 'invalid_payload' }),
    ).toBe(1);
    // A stock regularization without a product is acknowledged and quarantined, never refused.
    expect(sample(text, 'wms_sync_webhooks_received_total', { ...c, kind: 'stock-regularization' })).toBe(1);
    expect(sample(text, 'wms_sync_inbound_quarantined', { ...c, kind: 'stock-regularization' })).toBe(1);
    expect(sample(text, 'wms_sync_inbound_quarantined', { ...c, kind: 'reception-close' })).toBe(0);
    expect(
      sample(text, 'wms_sync_webhooks_rejected_total', {
        ...c,
        kind: 'stock-regularization',
        reason: 'unsupported_media_type',
      }),
    ).toBe(1);
    expect(sample(text, 'wms_sync_webhooks_auth_failures_total', c)).toBe(1);
    expect(sample(text, 'wms_sync_webhook_ack_seconds_count', { kind: 'reception-close', outcome: 'accepted' })).toBe(
      1,
    );
    expect(sample(text, 'wms_sync_webhook_ack_seconds_count', { kind: 'reception-close', outcome: 'duplicate' })).toBe(
      2,
    );
    expect(
      sample(text, 'wms_sync_webhook_ack_seconds_count', { kind: 'stock-regularization', outcome: 'rejected' }),
    ).toBe(1);
    expect(
      sample(text, 'wms_sync_webhook_ack_seconds_count', { kind: 'stock-regularization', outcome: 'accepted' }),
    ).toBe(1);
    expect(sample(text, 'wms_sync_webhook_commit_batch_size_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'wms_sync_inbound_processing_lag_seconds_count', { kind: 'reception-close' })).toBe(1);
    expect(sample(text, 'wms_sync_inbound_events', { status: 'processed' })).toBe(1);
    expect(sample(text, 'wms_sync_inbound_events', { status: 'rejected' })).toBe(2);
    expect(sample(text, 'wms_sync_inbound_events', { status: 'quarantined' })).toBe(1);
    expect(sample(text, 'wms_sync_inbound_queue_jobs', { state: 'waiting' })).toBe(0);
    expect(sample(text, 'wms_sync_inbound_queue_jobs', { state: 'failed' })).toBe(0);
  });

  it('a second app built on the same deps shares the metrics instead of failing to register them', async () => {
    const again = buildApp(svc.deps);
    expect((await again.request('/metrics')).status).toBe(200);
  });
});
