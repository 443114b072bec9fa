/**
 * Runs `fn` over `items` with at most `limit` calls in flight, in order of the items. No new call
 * starts once `stop()` is true; the first error thrown stops the others from starting and is
 * rethrown once the calls in flight have ended.
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>, stop: () => boolean = () => false): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const lane = async () => {
    while (!failed && !stop() && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failed) throw failed.error;
}
