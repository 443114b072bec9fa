/**
 * One statement for many concurrent calls (group commit): calls made while the statement's runs
 * are all in flight, or in the same turn of the event loop, wait and go together in the next run.
 * With nothing in flight a call goes at the next turn (without `lingerMs`), so an idle caller pays
 * no extra round trip; under load each run carries what accumulated during the last one. On
 * Postgres every statement is a round trip and a commit: a push of one record made five, and 200
 * jobs in flight made five each.
 *
 * `lingerMs` trades latency for fewer runs where calls come one at a time (a push's mark once its
 * answer arrives): a call waits at most that long for company, counted from when it was made, so a
 * call that already waited for a run in flight is not held again; a full batch goes at once.
 *
 * `run` gets the inputs of one batch (never two with the same key: a key already waiting goes in
 * the batch after) and returns one output per input, in order. When it throws, every call of the
 * batch gets the error.
 */
export interface CoalesceOptions<I> {
  /** Runs of the statement at once (the pool's connections are for everyone). */
  maxInFlight: number;
  /** Inputs per run at most (keeps statements small). */
  maxBatch: number;
  /** Calls with the same key never share a run (one row updated twice in one statement counts once). */
  key?: (input: I) => unknown;
  /** How long a call may wait for company, from when it was made (ms; default 0: the next turn of the event loop). */
  lingerMs?: number;
  /** Schedules a flush `ms` from now (0: the next turn); tests may pass their own. */
  defer?: (fn: () => void, ms: number) => void;
  /** Milliseconds on a monotonic clock, for the calls' age; tests may pass their own. */
  now?: () => number;
}

const deferDefault = (fn: () => void, ms: number): void => {
  if (ms > 0) setTimeout(fn, ms);
  else setImmediate(fn);
};

interface Waiting<I, O> {
  input: I;
  at: number;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

export function coalesce<I, O>(
  run: (inputs: I[]) => Promise<O[]>,
  options: CoalesceOptions<I>,
): (input: I) => Promise<O> {
  const waiting: Waiting<I, O>[] = [];
  const defer = options.defer ?? deferDefault;
  const linger = options.lingerMs ?? 0;
  const now = options.now ?? (() => performance.now());
  let inFlight = 0;
  let scheduled = false;
  // The pending flush waits out a linger: a call that makes it due now replaces it.
  let lingering = false;
  // Only the latest scheduled flush runs: a replaced linger's timer must not cut the next one short.
  let generation = 0;

  const takeBatch = (): Waiting<I, O>[] => {
    const batch: Waiting<I, O>[] = [];
    const keys = new Set<unknown>();
    for (let i = 0; i < waiting.length && batch.length < options.maxBatch; ) {
      const call = waiting[i]!;
      const key = options.key ? options.key(call.input) : undefined;
      if (options.key && keys.has(key)) {
        i += 1;
        continue;
      }
      keys.add(key);
      batch.push(call);
      waiting.splice(i, 1);
    }
    return batch;
  };

  const flush = (): void => {
    scheduled = false;
    lingering = false;
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      const batch = takeBatch();
      inFlight += 1;
      void run(batch.map((c) => c.input))
        .then(
          (outputs) => {
            if (outputs.length !== batch.length) {
              const err = new Error(`coalesce: ${outputs.length} outputs for ${batch.length} inputs`);
              for (const c of batch) c.reject(err);
            } else for (const [i, c] of batch.entries()) c.resolve(outputs[i]!);
          },
          (err: unknown) => {
            for (const c of batch) c.reject(err);
          },
        )
        .finally(() => {
          inFlight -= 1;
          schedule();
        });
    }
  };

  const schedule = (): void => {
    if (waiting.length === 0 || inFlight >= options.maxInFlight) return;
    const full = waiting.length >= options.maxBatch;
    const wait = full || linger <= 0 ? 0 : Math.max(0, linger - (now() - waiting[0]!.at));
    if (scheduled && !(lingering && wait === 0)) return;
    scheduled = true;
    lingering = wait > 0;
    const mine = ++generation;
    defer(() => {
      if (mine === generation) flush();
    }, wait);
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ input, at: linger > 0 ? now() : 0, resolve, reject });
      schedule();
    });
}
