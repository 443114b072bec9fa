/**
 * Runs `fn` over `items` with at most `limit` calls in flight, in order of the items, taking each
 * item from the iterable only when a call is free for it (a generator of batches is never drawn
 * ahead). No new call starts once `stop()` is true; the first error thrown stops the others from
 * starting and is rethrown once the calls in flight have ended.
 */
export async function forEachLimited<T>(
  items: Iterable<T>,
  limit: number,
  fn: (item: T) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  const source = items[Symbol.iterator]();
  let failed: { error: unknown } | undefined;
  const lane = async () => {
    while (!failed && !stop()) {
      const next = source.next();
      if (next.done) return;
      try {
        await fn(next.value);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  const lanes = Array.isArray(items) ? Math.min(limit, items.length) : limit;
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
  if (failed) throw failed.error;
}
