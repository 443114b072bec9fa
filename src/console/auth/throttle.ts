import type { Clock } from '../../lib/clock.js';

/**
 * Repeated wrong sign-ins from one client address: after `maxFailures` within `windowMs`, that
 * address must wait until the window of its oldest counted failure has passed. Deliberately
 * minimal and per process (the API's failed credentials go through lib/auth-failures.ts instead);
 * a correct sign-in is never slowed unless its address is locked out.
 */
export class SignInThrottle {
  readonly #failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly maxFailures = 5,
    private readonly windowMs = 15 * 60 * 1000,
  ) {}

  /** Seconds the address must still wait; 0 when it may try. */
  retryAfterSeconds(address: string): number {
    const recent = this.#recent(address);
    if (recent.length < this.maxFailures) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - this.clock.nowMs()) / 1000));
  }

  fail(address: string): void {
    const recent = this.#recent(address);
    recent.push(this.clock.nowMs());
    this.#failures.set(address, recent);
    // Keeps the map bounded when many addresses try once each.
    if (this.#failures.size > 10_000)
      for (const key of [...this.#failures.keys()].slice(0, 5_000)) this.#failures.delete(key);
  }

  succeed(address: string): void {
    this.#failures.delete(address);
  }

  #recent(address: string): number[] {
    const since = this.clock.nowMs() - this.windowMs;
    return (this.#failures.get(address) ?? []).filter((t) => t > since);
  }
}
