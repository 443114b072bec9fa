import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { type MisbehavingPeer, type PeerMode, startMisbehavingPeer } from '../../support/misbehaving-peer.js';
import { until } from '../../support/wait.js';
import { deliveryHarness, type Harness } from './harness.js';

/**
 * ERP delivery against an endpoint that breaks its sockets, in the same process as the service:
 * the process lives (no error escapes to `uncaughtException`), each attempt is recorded with what
 * went wrong, and the rules decide what follows (docs/erp-delivery.md): a 413 is a 4xx that fails
 * at once, every socket failure and timeout is retried, and a retried delivery is delivered once
 * the endpoint behaves.
 */
export function peerSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`ERP delivery to a misbehaving endpoint (${dialect})`, { timeout: 120_000 }, () => {
    let h: Harness | undefined;
    let peer: MisbehavingPeer | undefined;
    const escaped: unknown[] = [];
    const onEscape = (err: unknown) => escaped.push(err);
    const clock = new ManualClock(Date.now());
    afterEach(async () => {
      await h?.close();
      await peer?.close();
      process.off('uncaughtException', onEscape);
      process.off('unhandledRejection', onEscape);
      h = undefined;
      peer = undefined;
    });

    // A body of several MB: the client is still writing when the peer answers or closes.
    const big = { documentExternalCode: 'SO-BIG', note: 'x'.repeat(4 * 1024 * 1024) };

    const socketError = /ECONNRESET|EPIPE|socket hang up/;
    // A peer that answers 413 and closes while the client writes: the client reads the 413 (a 4xx
    // that fails at once) or meets the closed socket first (retried); either way it is recorded.
    const cases: { mode: PeerMode; outcomes: { outcome: 'retry' | 'dead'; error: RegExp; status: number | null }[] }[] =
      [
        {
          mode: 'reject-unread',
          outcomes: [
            { outcome: 'dead', error: /^HTTP 413$/, status: 413 },
            { outcome: 'retry', error: socketError, status: null },
          ],
        },
        { mode: 'close-mid-body', outcomes: [{ outcome: 'retry', error: socketError, status: null }] },
        { mode: 'reset', outcomes: [{ outcome: 'retry', error: socketError, status: null }] },
        { mode: 'hang', outcomes: [{ outcome: 'retry', error: /^timeout/, status: null }] },
        { mode: 'trickle', outcomes: [{ outcome: 'retry', error: /^timeout/, status: null }] },
        { mode: 'half-open', outcomes: [{ outcome: 'retry', error: /^timeout/, status: null }] },
      ];

    for (const c of cases) {
      it(`${c.mode}: the process lives, the attempt is recorded, a retried delivery is delivered once the endpoint behaves`, async () => {
        process.on('uncaughtException', onEscape);
        process.on('unhandledRejection', onEscape);
        escaped.length = 0;
        peer = await startMisbehavingPeer((hit) => (hit === 1 ? c.mode : 'ok'));
        h = await deliveryHarness({ label: `peer-${dialect}`, dialect, clock, erpWebhookUrl: `${peer.url}/erp` });
        await h.append('shipment.closed', big);
        const w = h.startWorker({ timeoutMs: 1000 });
        const x = h;
        await until(async () => (await x.store.erpDeliveries.list({ limit: 1 }))[0]?.attempts === 1);
        await w.settled();
        const [d] = await x.store.erpDeliveries.list({ limit: 1 });
        const [attempt] = await x.store.erpDeliveries.attemptsOf(d!.id);
        const rule = c.outcomes.find((o) => o.outcome === attempt!.outcome);
        expect(rule, `outcome ${attempt!.outcome}: ${attempt!.error}`).toBeDefined();
        expect(attempt!.status).toBe(rule!.status);
        expect(attempt!.error).toMatch(rule!.error);
        if (rule!.outcome === 'retry') {
          expect(d!.status).toBe('pending');
          // Each retry is due a step later on the test's clock; a busy machine may need more than one.
          await until(async () => {
            clock.advance(1000);
            w.wake();
            return (await x.store.erpDeliveries.list({ limit: 1 }))[0]?.status === 'delivered';
          });
        } else expect(d!.status).toBe('dead');
        expect(escaped).toEqual([]);
      });
    }

    it('a 100 MB answer is not read to its end: the status counts, the first KB is kept', async () => {
      process.on('uncaughtException', onEscape);
      escaped.length = 0;
      peer = await startMisbehavingPeer(() => 'huge');
      h = await deliveryHarness({ label: `peer-${dialect}`, dialect, clock, erpWebhookUrl: `${peer.url}/erp` });
      await h.append('shipment.closed', { documentExternalCode: 'SO-H' });
      const w = h.startWorker({ timeoutMs: 20_000 });
      const x = h;
      await until(async () => (await x.store.erpDeliveries.list({ limit: 1 }))[0]?.status === 'delivered');
      await w.settled();
      const [d] = await x.store.erpDeliveries.list({ limit: 1 });
      const [attempt] = await x.store.erpDeliveries.attemptsOf(d!.id);
      expect(attempt).toMatchObject({ outcome: 'delivered', status: 200 });
      expect(attempt!.response).toHaveLength(1024);
      // Read up to the kept KB and the drain allowance, far from the 100 MB offered.
      expect(peer.bytesSent).toBeLessThan(20 * 1024 * 1024);
      expect(escaped).toEqual([]);
    });
  });
}
