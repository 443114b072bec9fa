/**
 * At most `max` calls in flight; the others wait in arrival order. One per WMS connection, so
 * however many jobs run, the WMS never sees more than `max` concurrent requests from this process.
 */
export class Limiter {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`Limiter: max must be a positive integer, got ${max}`);
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active >= this.max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#active += 1;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter, so `active` never dips and lets a newcomer jump the line.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}
