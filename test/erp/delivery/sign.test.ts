import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signMessage } from '../../../src/erp/delivery/sign.js';

const secretOf = (fill: number) => `whsec_${Buffer.alloc(32, fill).toString('base64')}`;

describe('signMessage (Standard Webhooks)', () => {
  it('signs so that the standardwebhooks verifier accepts the message with the same secret', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.json(),
        fc.integer({ min: 1, max: 255 }),
        (id, body, fill) => {
          const at = new Date();
          const headers = signMessage([secretOf(fill)], id, at, body);
          expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
          expect(() => new Webhook(secretOf(fill)).verify(body, { ...headers })).not.toThrow();
        },
      ),
      { numRuns: 50 },
    );
  });

  it('during a rotation, a receiver holding either secret verifies the message; a third secret does not', () => {
    const headers = signMessage([secretOf(1), secretOf(2)], 'msg_1', new Date(), '{"a":1}');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(secretOf(1)).verify('{"a":1}', { ...headers })).not.toThrow();
    expect(() => new Webhook(secretOf(2)).verify('{"a":1}', { ...headers })).not.toThrow();
    expect(() => new Webhook(secretOf(3)).verify('{"a":1}', { ...headers })).toThrow();
  });

  it('a changed body or id fails verification', () => {
    const headers = signMessage([secretOf(5)], 'msg_1', new Date(), '{"a":1}');
    expect(() => new Webhook(secretOf(5)).verify('{"a":2}', { ...headers })).toThrow();
    expect(() => new Webhook(secretOf(5)).verify('{"a":1}', { ...headers, 'webhook-id': 'msg_2' })).toThrow();
  });

  it('gives byte for byte the signature the standardwebhooks package computes', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ maxLength: 2000 }),
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
        (id, body, bytes, at) => {
          const secret = `whsec_${Buffer.from(bytes).toString('base64')}`;
          expect(signMessage([secret], id, at, body)['webhook-signature']).toBe(new Webhook(secret).sign(id, at, body));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses to sign without a secret', () => {
    expect(() => signMessage([], 'm', new Date(), '{}')).toThrow(/no secret/);
  });
});
