import { describe, expect, it } from 'vitest';
import { isRetryable, parseRetryAfter, WmsError, wmsMessage } from '../../src/wms-client/index.js';

describe('WmsError', () => {
  it.each([
    ['timeout', 0, true],
    ['network', 0, true],
    ['http', 409, true],
    ['http', 429, true],
    ['http', 500, true],
    ['http', 503, true],
    ['http', 400, false],
    ['http', 401, false],
    ['http', 403, false],
    ['http', 404, false],
    ['invalid-response', 200, false],
  ] as const)('%s %i is retryable: %s', (kind, status, retryable) => {
    expect(isRetryable(kind, status)).toBe(retryable);
    expect(new WmsError({ kind, status, operation: 'op', method: 'GET', path: '/p' }).retryable).toBe(retryable);
  });

  it("takes the WMS's words from the bad-request object's title, the conflict's detail, or the token error", () => {
    expect(
      wmsMessage({
        entityName: 'product',
        errorKey: 'skuexists',
        title: 'Product SKU already exists',
        status: '400',
        message: 'error.skuexists',
      }),
    ).toBe('Product SKU already exists');
    expect(wmsMessage({ detail: 'Document is IN_PROGRESS', status: { statusCode: 409 } })).toBe(
      'Document is IN_PROGRESS',
    );
    expect(wmsMessage({ error: 'invalid_client', error_description: 'Bad credentials' })).toBe('Bad credentials');
    expect(wmsMessage('  plain text  ')).toBe('plain text');
    expect(wmsMessage(undefined)).toBeUndefined();
  });

  it('says what failed and serializes without any request detail', () => {
    const err = new WmsError({
      kind: 'http',
      status: 400,
      operation: 'createProduct',
      method: 'POST',
      path: '/api/external/v1/product',
      body: { title: 'Product SKU already exists' },
    });
    expect(err.message).toBe('createProduct (POST /api/external/v1/product): 400 Product SKU already exists');
    expect(Object.keys(JSON.parse(JSON.stringify(err)))).toEqual([
      'kind',
      'operation',
      'status',
      'message',
      'body',
      'retryable',
    ]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
