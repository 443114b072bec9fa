import type { Writable } from 'node:stream';

/**
 * A one-line progress bar, redrawn in place on a terminal; elsewhere (a pipe, a CI log) a plain
 * line at most every `plainEveryMs`, so logs stay readable.
 */
export class ProgressLine {
  #lastPlain = 0;
  readonly #tty: boolean;

  constructor(
    private readonly out: Writable,
    private readonly plainEveryMs = 2000,
  ) {
    this.#tty = Boolean((out as Writable & { isTTY?: boolean }).isTTY);
  }

  update(done: number, total: number, detail: string): void {
    const width = 30;
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(ratio * width);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${detail}`;
    if (this.#tty) this.out.write(`\r${line}\u001b[K`);
    else if (Date.now() - this.#lastPlain >= this.plainEveryMs || done === total) {
      this.#lastPlain = Date.now();
      this.out.write(`${line}\n`);
    }
  }

  end(): void {
    if (this.#tty) this.out.write('\n');
  }
}
