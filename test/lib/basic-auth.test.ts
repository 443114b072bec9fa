import { describe, expect, it } from 'vitest';
import { basicAuthorization } from '../../src/lib/basic-auth.js';

describe('basicAuthorization', () => {
  it("RFC 7617's examples: ASCII, and a password outside ASCII encoded as UTF-8", () => {
    expect(basicAuthorization('Aladdin', 'open sesame')).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
    expect(basicAuthorization('test', '123\u00a3')).toBe('Basic dGVzdDoxMjPCow==');
  });

  it('an empty password still carries the colon', () => {
    expect(Buffer.from(basicAuthorization('user', '').slice('Basic '.length), 'base64').toString('utf8')).toBe('user:');
  });
});
