import { describe, expect, it } from 'vitest';
import { batcher } from '../../src/lib/batcher.js';

/** A statement the test finishes itself, recording the batches it was given. */
function statement() {
  const runs: { inputs: number[]; finish: () => void; fail: (err: Error) => void }[] = [];
  const run = (inputs: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      runs.push({ inputs, finish: () => resolve(inputs.map((i) => i * 10)), fail: reject });
    });
  return { runs, run };
}

/** Flushes run when the test says: `turn()` runs those due at the next turn, `elapse()` the timers too. */
function manualDefer() {
  let due: { fn: () => void; ms: number }[] = [];
  const delays: number[] = [];
  const runDue = async (timers: boolean) => {
    const now = due.filter((d) => timers || d.ms === 0);
    due = due.filter((d) => !now.includes(d));
    for (const d of now) d.fn();
    await new Promise((r) => setImmediate(r));
  };
  return {
    delays,
    defer: (fn: () => void, ms: number) => {
      delays.push(ms);
      due.push({ fn, ms });
    },
    turn: () => runDue(false),
    elapse: () => runDue(true),
    /** Fires the oldest flush still due, alone. */
    fireOldest: async () => {
      due.shift()?.fn();
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('batcher', () => {
  it('calls made in one turn go as one run; calls made while the runs are in flight go together in the next', async () => {
    const st = statement();
    const d = manualDefer();
    const call = batcher(st.run, { maxInFlight: 1, maxBatch: 100, defer: d.defer });
    const first = [1, 2, 3].map((i) => call.submit(i));
    expect(st.runs).toHaveLength(0);
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2, 3]]);
    const second = [4, 5].map((i) => call.submit(i));
    await d.turn();
    // the one run allowed is in flight: 4 and 5 wait
    expect(st.runs).toHaveLength(1);
    st.runs[0]!.finish();
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    st.runs[1]!.finish();
    expect(await Promise.all(second)).toEqual([40, 50]);
  });

  it('never more runs in flight than maxInFlight, nor more inputs per run than maxBatch', async () => {
    const st = statement();
    const d = manualDefer();
    const call = batcher(st.run, { maxInFlight: 2, maxBatch: 2, defer: d.defer });
    const all = [1, 2, 3, 4, 5].map((i) => call.submit(i));
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([
      [1, 2],
      [3, 4],
    ]);
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
    const call = batcher(st.run, { maxInFlight: 1, maxBatch: 100, key: (i: number) => i % 3, defer: d.defer });
    const all = [1, 2, 4, 3].map((i) => call.submit(i));
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2, 3]]);
    st.runs[0]!.finish();
    await d.turn();
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1, 2, 3], [4]]);
    st.runs[1]!.finish();
    expect(await Promise.all(all)).toEqual([10, 20, 40, 30]);
  });

  it('without a linger a run goes at the next turn; with one it waits that long for company, unless its batch is full', async () => {
    const st = statement();
    const d = manualDefer();
    const plain = batcher(st.run, { maxInFlight: 1, maxBatch: 3, defer: d.defer });
    const one = plain.submit(1);
    expect(d.delays).toEqual([0]);
    await d.turn();
    st.runs[0]!.finish();
    expect(await one).toBe(10);

    d.delays.length = 0;
    const lingering = batcher(st.run, { maxInFlight: 1, maxBatch: 3, lingerMs: 10, defer: d.defer, now: () => 0 });
    const first = [2, 3].map((i) => lingering.submit(i));
    expect(d.delays).toEqual([10]);
    await d.turn();
    // the next turn came, the linger did not end: nothing went
    expect(st.runs).toHaveLength(1);
    const third = lingering.submit(4);
    // the batch is full: it goes at the next turn, without the linger's timer
    expect(d.delays).toEqual([10, 0]);
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1], [2, 3, 4]]);
    st.runs[1]!.finish();
    expect(await Promise.all([...first, third])).toEqual([20, 30, 40]);
    const fourth = lingering.submit(5);
    expect(d.delays).toEqual([10, 0, 10]);
    await d.fireOldest();
    // the first linger's timer, replaced by the full batch, flushes nothing: 5 waits for its own
    expect(st.runs).toHaveLength(2);
    await d.elapse();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1], [2, 3, 4], [5]]);
    st.runs[2]!.finish();
    expect(await fourth).toBe(50);
  });

  it('the linger counts from when a call was made: one that waited for a run in flight is not held again', async () => {
    const st = statement();
    const d = manualDefer();
    let t = 0;
    const call = batcher(st.run, { maxInFlight: 1, maxBatch: 100, lingerMs: 10, defer: d.defer, now: () => t });
    const first = call.submit(1);
    await d.elapse();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1]]);
    t = 3;
    const second = call.submit(2);
    const third = call.submit(3);
    // the one run allowed is in flight: nothing is scheduled yet
    expect(d.delays).toEqual([10]);
    t = 7;
    st.runs[0]!.finish();
    await first;
    await d.turn();
    // 2 was made at 3 and it is 7: it waits the 6 ms left of its linger
    expect(d.delays).toEqual([10, 6]);
    t = 20;
    await d.elapse();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1], [2, 3]]);
    const fourth = call.submit(4);
    t = 35;
    st.runs[1]!.finish();
    expect(await Promise.all([second, third])).toEqual([20, 30]);
    // 4 was made at 20, during the run, which ended at 35: it goes at the next turn
    expect(d.delays.at(-1)).toBe(0);
    await d.turn();
    expect(st.runs.map((r) => r.inputs)).toEqual([[1], [2, 3], [4]]);
    st.runs[2]!.finish();
    expect(await fourth).toBe(40);
  });

  it('with a linger and the default timers, calls still go (on a timer rather than the next turn)', async () => {
    const runs: number[][] = [];
    const call = batcher(async (inputs: number[]) => (runs.push(inputs), inputs.map((i) => -i)), {
      maxInFlight: 1,
      maxBatch: 100,
      lingerMs: 1,
    });
    expect(await Promise.all([call.submit(1), call.submit(2)])).toEqual([-1, -2]);
    expect(runs).toEqual([[1, 2]]);
  });

  it('a failed run fails each of its calls, and the next run goes on', async () => {
    const st = statement();
    const d = manualDefer();
    const call = batcher(st.run, { maxInFlight: 1, maxBatch: 100, defer: d.defer });
    const failed = [1, 2].map((i) => call.submit(i).catch((e: Error) => e.message));
    await d.turn();
    const next = call.submit(3);
    st.runs[0]!.fail(new Error('connection lost'));
    expect(await Promise.all(failed)).toEqual(['connection lost', 'connection lost']);
    await d.turn();
    st.runs[1]!.finish();
    expect(await next).toBe(30);
  });
});
