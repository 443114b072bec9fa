/**
 * Resolves as soon as `check` returns a truthy value (re-checked every `everyMs`), or rejects
 * with `message` after `timeoutMs`. For conditions that live in another process or database,
 * where no event can be subscribed to; in-process code should expose an event instead.
 * The timeout only bounds a failing test: a passing one returns as soon as the condition holds, so
 * it is generous (a 2-core CI machine beside a CPU hog runs a retry cycle many times slower).
 */
export async function until<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 30_000, everyMs = 20, message = 'condition not met' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`${message} within ${timeoutMs} ms${last ? ` (last error: ${(last as Error).message})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
