import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/lib/coalesce.js';

/** A statement the test finishes itself, recording the batches it was given. */
function statement() {
  const runs: { inputs: number[]; finish: () => void; fail: (err: Error) => void }[] = [];
  const run = (inputs: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      runs.push({ inputs, finish: () => resolve(inputs.map((i) => i * 10)), fail: reject });
    });
  return { runs, run };
}

/** Flushes run when the test says (the turn of the event loop, made explicit). */
function manualDefer() {
  let due: (() => void)[] = [];
  return {
    defer: (fn: () => void) => void due.push(fn),
    turn: async () => {
      const now = due;
      due = [];
      for (const fn of now) fn();
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('coalesce', () => {
  it('calls made in one turn go as one run; calls made while the runs are in flight go together in the next', async () => {
    const st = statement();
    const d = manualDefer();
    const call = coalesce(st.run, { maxInFlight: 1, maxBatch: 100, defer: d.defer });
    const first = [1, 2, 3].map((i) => call(i));
    expect(st.runs).toHaveLength(0);
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2, 3]]);
    const second = [4, 5].map((i) => call(i));
    await d.turn();
    // the one run allowed is in flight: 4 and 5 wait
    expect(st.runs).toHaveLength(1);
    st.runs[0]!.finish();
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2, 3], [4, 5]]);
    st.runs[1]!.finish();
    expect(await Promise.all(second)).toEqual([40, 50]);
  });

  it('never more runs in flight than maxInFlight, nor more inputs per run than maxBatch', async () => {
    const st = statement();
    const d = manualDefer();
    const call = coalesce(st.run, { maxInFlight: 2, maxBatch: 2, defer: d.defer });
    const all = [1, 2, 3, 4, 5].map((i) => call(i));
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2], [3, 4]]);
    st.runs[1]!.finish();
    await d.turn();
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2], [3, 4], [5]]);
    st.runs[0]!.finish();
    st.runs[2]!.finish();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
  });

  it('two calls with one key never share a run', async () => {
    const st = statement();
    const d = manualDefer();
    const call = coalesce(st.run, { maxInFlight: 1, maxBatch: 100, key: (i: number) => i % 3, defer: d.defer });
    const all = [1, 2, 4, 3].map((i) => call(i));
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2, 3]]);
    st.runs[0]!.finish();
    await d.turn();
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2, 3], [4]]);
    st.runs[1]!.finish();
    expect(await Promise.all(all)).toEqual([10, 20, 40, 30]);
  });

  it("a failed run fails each of its calls, and the next run goes on", async () => {
    const st = statement();
    const d = manualDefer();
    const call = coalesce(st.run, { maxInFlight: 1, maxBatch: 100, defer: d.defer });
    const failed = [1, 2].map((i) => call(i).catch((e: Error) => e.message));
    await d.turn();
    const next = call(3);
    st.runs[0]!.fail(new Error('connection lost'));
    expect(await Promise.all(failed)).toEqual(['connection lost', 'connection lost']);
    await d.turn();
    st.runs[1]!.finish();
    expect(await next).toBe(30);
  });
});
