import { describe, expect, it } from 'vitest';
import { pushProblem } from '../../src/console/ui/push-problem.js';

describe('pushProblem: whose move a WMS push’s error is, in plain words', () => {
  const refused = { kind: 'wms', status: 400, message: 'Product SKU already exists', retryable: false, attempts: 1 };
  const unavailable = {
    kind: 'wms',
    status: 503,
    message: 'Service Unavailable',
    retryable: true,
    attempts: 3,
    nextAttemptAt: '2026-11-28T10:42:07.000Z',
  };

  it('data the WMS refused is fixed in the ERP', () => {
    expect(pushProblem({ state: 'failed', lastError: refused })).toEqual({
      tone: 'bad',
      headline: 'The WMS refused the data: fix it in the ERP, which pushes it again.',
      detail: 'HTTP 400: Product SKU already exists',
    });
  });

  it('a WMS that is unavailable: which attempt failed and when the next one comes', () => {
    expect(pushProblem({ state: 'pending', lastError: unavailable })).toMatchObject({
      tone: 'warn',
      headline: 'The WMS is unavailable: attempt 3 failed, next at 10:42 UTC.',
      detail: 'HTTP 503: Service Unavailable',
    });
    const { nextAttemptAt: _n, ...withoutNext } = unavailable;
    expect(pushProblem({ state: 'pending', lastError: withoutNext })!.headline).toBe(
      'The WMS is unavailable: attempt 3 failed, tried again by itself.',
    );
  });

  it('attempts that ran out while the WMS was unavailable wait for an operator’s retry', () => {
    expect(pushProblem({ state: 'failed', lastError: unavailable })).toMatchObject({
      tone: 'bad',
      headline: 'The WMS was unavailable for every attempt (3): retry once it is back.',
    });
  });

  it('says nothing for a synced record or one without an error, and names other failures', () => {
    expect(pushProblem({ state: 'synced', lastError: refused })).toBeUndefined();
    expect(pushProblem({ state: 'pending', lastError: null })).toBeUndefined();
    expect(pushProblem({ state: 'failed', lastError: { kind: 'internal', message: 'disk full' } })).toEqual({
      tone: 'bad',
      headline: 'The push could not be made.',
      detail: 'disk full',
    });
  });
});
