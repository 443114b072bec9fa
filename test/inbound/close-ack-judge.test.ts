import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERP_MESSAGE_LIMIT, judgeErpAnswer, NO_MESSAGE } from '../../src/inbound/close-ack-http.js';

// The ERP's answer is read by the rules the spec gives the WMS's receivers (Events, obligations):
// "2. The receiver answers with a 2xx status to acknowledge. The body is optional."
// "3. To reject a close document, the receiver returns a body with `success` = false and `message`."
// "4. Any non-2xx response is a failure."
describe('judgeErpAnswer', () => {
  it('a 2xx with {success:false, message} refuses, with that message', () => {
    expect(judgeErpAnswer(200, '{"success":false,"message":"PO closed"}', 1)).toMatchObject({
      decision: 'rejected',
      message: 'PO closed',
    });
    expect(judgeErpAnswer(202, '{"success":false}', 1)).toMatchObject({ decision: 'rejected', message: NO_MESSAGE });
    expect(judgeErpAnswer(200, `{"success":false,"message":"${'x'.repeat(5000)}"}`, 1)).toMatchObject({
      decision: 'rejected',
      message: 'x'.repeat(ERP_MESSAGE_LIMIT),
    });
  });

  it('a 2xx with an empty body, {success:true}, other JSON or no JSON at all accepts', () => {
    for (const body of [
      '',
      '  ',
      '{"success":true}',
      '{}',
      '[]',
      'null',
      '"false"',
      '{"success":"false"}',
      '<html>',
      '{"success":false',
    ]) {
      expect(judgeErpAnswer(200, body, 1).decision).toBe('accepted');
    }
  });

  it('any status outside 2xx decides nothing, whatever the body says', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }).filter((s) => s < 200 || s > 299),
        fc.string(),
        (status, text) => {
          for (const body of [text, '{"success":false,"message":"no"}']) {
            expect(judgeErpAnswer(status, body, 1)).toMatchObject({ decision: 'none', reason: 'http_status' });
          }
        },
      ),
    );
  });

  it('a 2xx refuses only when the body is JSON with success exactly false', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 299 }), fc.jsonValue(), (status, value) => {
        const refuses =
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          (value as { success?: unknown }).success === false;
        expect(judgeErpAnswer(status, JSON.stringify(value), 1).decision).toBe(refuses ? 'rejected' : 'accepted');
      }),
    );
  });
});
