/**
 * At most `limit` requests are served at once; the others wait in arrival order, as in a server's
 * accept queue, so the time they spend waiting shows as added latency.
 */
export class Gate {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  async enter(): Promise<void> {
    if (this.#active < this.limit) {
      this.#active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  leave(): void {
    // The slot passes straight to the next in line, so a newcomer never jumps the queue.
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active -= 1;
  }
}
