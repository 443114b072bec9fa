import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLOSED, stepBreaker } from '../../../src/erp/delivery/breaker.js';
import { classify, type PostOutcome } from '../../../src/erp/delivery/classify.js';
import { orderKeyOf } from '../../../src/erp/delivery/order-key.js';
import { ConfigError, loadConfig } from '../../../src/lib/config.js';

const now = new Date('2026-11-26T10:00:00.000Z');
const answered = (status: number, retryAfter: string | null = null): PostOutcome => ({
  kind: 'answered',
  status,
  retryAfter,
  response: null,
  latencyMs: 3,
});
const SCHEDULE = [0, 5_000, 300_000, 1_800_000];

describe('the rule of one attempt (classify)', () => {
  it('2xx delivers; a 4xx other than 408/409/425/429 is dead at once; the rest retry within the schedule step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 599 }),
        fc.integer({ min: 1, max: 3 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (status, attempts, random) => {
          const v = classify(answered(status), attempts, SCHEDULE, now, random);
          if (status < 300) expect(v.outcome).toBe('delivered');
          else if (status >= 400 && status < 500 && ![408, 409, 425, 429].includes(status)) {
            expect(v.outcome).toBe('dead');
            expect(v.endpointFailed).toBe(false);
          } else if (status >= 300 && status < 400) {
            // A redirect is not followed: retried like any other unexpected answer.
            expect(v.outcome).toBe('retry');
          } else {
            expect(v.outcome).toBe('retry');
            const delay = v.nextAttemptAt!.getTime() - now.getTime();
            // Full jitter: anywhere from 0 to the step.
            expect(delay).toBeGreaterThanOrEqual(0);
            expect(delay).toBeLessThanOrEqual(SCHEDULE[attempts]!);
          }
        },
      ),
    );
  });

  it('the schedule’s last attempt that fails is dead', () => {
    expect(classify(answered(503), SCHEDULE.length, SCHEDULE, now).outcome).toBe('dead');
    expect(
      classify(
        { kind: 'no-answer', timeout: true, error: 'no answer', latencyMs: 15_000 },
        SCHEDULE.length,
        SCHEDULE,
        now,
      ),
    ).toMatchObject({ outcome: 'dead', endpointFailed: true });
  });

  it('Retry-After on 429/503 is a floor (seconds or an HTTP date); on a 500 it is ignored', () => {
    expect(classify(answered(429, '120'), 1, SCHEDULE, now, 0).nextAttemptAt!.getTime() - now.getTime()).toBe(120_000);
    expect(
      classify(
        answered(503, new Date(now.getTime() + 60_000).toUTCString()),
        1,
        SCHEDULE,
        now,
        0,
      ).nextAttemptAt!.getTime() - now.getTime(),
    ).toBe(60_000);
    expect(classify(answered(500, '120'), 1, SCHEDULE, now, 0).nextAttemptAt!.getTime()).toBe(now.getTime());
  });

  it('timeouts and refused connections retry and count against the endpoint; an answered 4xx does not', () => {
    expect(
      classify({ kind: 'no-answer', timeout: false, error: 'ECONNREFUSED', latencyMs: 1 }, 1, SCHEDULE, now),
    ).toMatchObject({ outcome: 'retry', endpointFailed: true, error: 'ECONNREFUSED' });
    expect(classify(answered(409), 1, SCHEDULE, now).endpointFailed).toBe(false);
    expect(classify(answered(429), 1, SCHEDULE, now).endpointFailed).toBe(true);
  });
});

describe('the circuit breaker (stepBreaker)', () => {
  const settings = { failures: 3, probeMs: 5_000 };
  it('opens at the threshold of consecutive failures; a success in between starts the count again', () => {
    expect(stepBreaker(undefined, [false, false], settings, now)).toMatchObject({ state: 'closed', failures: 2 });
    expect(stepBreaker(undefined, [false, false, true, false, false], settings, now)).toMatchObject({
      state: 'closed',
      failures: 2,
    });
    expect(stepBreaker(undefined, [false, false, false], settings, now)).toEqual({
      state: 'open',
      failures: 3,
      openedAt: now,
      nextProbeAt: new Date(now.getTime() + 5_000),
    });
  });

  it('open: a failed probe keeps it open (its next probe time unchanged here); one success closes it', () => {
    const open = stepBreaker(undefined, [false, false, false], settings, now);
    expect(stepBreaker(open, [false], settings, new Date(now.getTime() + 5_000))).toMatchObject({
      state: 'open',
      openedAt: now,
      nextProbeAt: open.nextProbeAt,
    });
    expect(stepBreaker(open, [true], settings, now)).toEqual(CLOSED);
  });
});

describe('order keys', () => {
  it('a close document orders by its document (or closing code); a stock event by product and lot', () => {
    expect(orderKeyOf('reception.closed', { documentExternalCode: 'PO-1', closingDocumentCode: 'R-1' }, 7)).toBe(
      'doc:PO-1',
    );
    expect(orderKeyOf('shipment.closed', { documentExternalCode: null, closingDocumentCode: 'S-1' }, 7)).toBe(
      'doc:S-1',
    );
    expect(orderKeyOf('stock.adjusted', { productExternalCode: 'P', lotCode: 'L' }, 7)).toBe('lot:P|L');
    expect(orderKeyOf('stock.drift', { productExternalCode: 'P', lotCode: null }, 7)).toBe('lot:P|');
    expect(orderKeyOf('client_return.closed', {}, 7)).toBe('event:7');
  });
});

describe('ERP_WEBHOOK_RETRY_SCHEDULE', () => {
  it('reads durations with units (a bare number is seconds); refuses anything else naming the variable', () => {
    expect(loadConfig({ ERP_WEBHOOK_RETRY_SCHEDULE: '0, 500ms,5s,2m,1h,1d,30' }).delivery.retryScheduleMs).toEqual([
      0, 500, 5_000, 120_000, 3_600_000, 86_400_000, 30_000,
    ]);
    expect(loadConfig({}).delivery.retryScheduleMs).toEqual([
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    for (const bad of ['soon', '5x', '1,,2', Array.from({ length: 51 }, () => '1s').join(',')]) {
      expect(() => loadConfig({ ERP_WEBHOOK_RETRY_SCHEDULE: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ ERP_WEBHOOK_RETRY_SCHEDULE: bad })).toThrow(/ERP_WEBHOOK_RETRY_SCHEDULE/);
    }
  });
});
