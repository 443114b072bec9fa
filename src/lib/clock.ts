/** Time source passed into everything that reads the time, so tests can move it. */
export interface Clock {
  now(): Date;
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  nowMs: () => Date.now(),
};

/** A clock that only moves when told to: the real in-memory form of `Clock` for tests and demos. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date | number = Date.now()) {
    this.#ms = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  nowMs(): number {
    return this.#ms;
  }

  advance(ms: number): void {
    this.#ms += ms;
  }

  set(to: Date | number): void {
    this.#ms = typeof to === 'number' ? to : to.getTime();
  }
}
