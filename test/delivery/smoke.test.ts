import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryHarness, type Harness } from './harness.js';

describe('smoke', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await deliveryHarness({ label: 'smoke' });
  });
  afterAll(async () => h.close());
  it('delivers', async () => {
    const w = h.startWorker();
    const c = await h.append('reception.closed', { documentExternalCode: 'PO-1', n: 1 });
    await h.receiver.received(1);
    expect(h.receiver.receipts[0]!.id).toBe(`evt_acme_${c.id}`);
    await w.settled();
    const [d] = await h.store.deliveries.list({ limit: 10 });
    expect(d!.status).toBe('delivered');
  });
});
