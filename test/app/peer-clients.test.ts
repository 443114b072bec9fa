import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../src/emulator/webhooks/send.js';
import { askErp } from '../../src/inbound/close-ack-http.js';
import { WmsError } from '../../src/wms-client/errors.js';
import { send, wmsAgent } from '../../src/wms-client/http.js';
import { type MisbehavingPeer, type PeerMode, startMisbehavingPeer } from '../support/misbehaving-peer.js';

/**
 * Every outgoing HTTP client against a peer that breaks its sockets, in this process: each call
 * ends in the client's own failure value (never an error event no one hears, never a 100 MB read).
 */
const MODES: PeerMode[] = ['close-mid-body', 'reject-unread', 'reset', 'hang', 'trickle', 'half-open', 'huge'];
const BIG = 'x'.repeat(4 * 1024 * 1024);

describe('outgoing clients against a misbehaving peer', { timeout: 60_000 }, () => {
  let peer: MisbehavingPeer;
  let mode: PeerMode = 'ok';
  const escaped: unknown[] = [];
  const onEscape = (err: unknown) => escaped.push(err);
  beforeAll(async () => {
    peer = await startMisbehavingPeer(() => mode);
    process.on('uncaughtException', onEscape);
    process.on('unhandledRejection', onEscape);
  });
  afterAll(async () => {
    process.off('uncaughtException', onEscape);
    process.off('unhandledRejection', onEscape);
    await peer.close();
  });

  for (const m of MODES) {
    it(`${m}: the close acknowledgement question decides nothing, and says why`, async () => {
      mode = m;
      const answer = await askErp({
        url: `${peer.url}/erp`,
        secrets: [`whsec_${Buffer.alloc(32, 1).toString('base64')}`],
        messageId: 'msg_1',
        at: new Date(),
        message: {
          type: 'close_document.received',
          connection: 'acme',
          kind: 'reception-close',
          eventId: 1,
          data: BIG,
        },
        timeoutMs: 500,
      });
      expect(answer.decision === 'none' || (m === 'huge' && answer.decision === 'accepted')).toBe(true);
      if (m === 'reject-unread' && answer.decision === 'none')
        expect(['http_status', 'unreachable']).toContain(answer.reason);
      expect(escaped).toEqual([]);
    });

    it(`${m}: a WMS call fails with a retryable WmsError or an HTTP status, never more than the body limit read`, async () => {
      mode = m;
      const agent = wmsAgent(1000);
      const before = peer.bytesSent;
      try {
        const res = await send(
          { operation: 'putProduct', method: 'PUT', url: `${peer.url}/api`, path: '/api', json: { note: BIG } },
          { timeoutMs: 1000, dispatcher: agent },
        ).then((r) => r.text());
        expect(m === 'reject-unread' || m === 'huge').toBe(true);
        expect(res.length).toBeLessThan(64 * 1024 * 1024);
      } catch (err) {
        expect(err).toBeInstanceOf(WmsError);
        expect((err as WmsError).retryable).toBe(true);
      } finally {
        await agent.destroy();
      }
      expect(peer.bytesSent - before).toBeLessThan(64 * 1024 * 1024);
      expect(escaped).toEqual([]);
    });

    it(`${m}: the emulator's webhook sender records a failure or the kept part of an answer`, async () => {
      mode = m;
      const result = await postJson({
        url: `${peer.url}/hook`,
        body: BIG,
        authorization: null,
        timeoutMs: 1000,
        signal: new AbortController().signal,
      });
      if (result.error === null) expect(result.body!.length).toBeLessThanOrEqual(64 * 1024);
      else expect(result.status).toBeNull();
      expect(escaped).toEqual([]);
    });
  }
});
