/** Runs a synchronous statement and hands back a promise: through the lock, or directly in a tx. */
export type Run = <T>(fn: () => T) => Promise<T>;

export const runNow: Run = (fn) => {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
};
