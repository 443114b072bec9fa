/**
 * The product codes of a run, deduplicated in their first order, held as one string and the end
 * offset of each code in it. Endpoint 6 answers every code at once, so the list is the one thing a
 * run holds per product; as an array of strings it cost about 50 bytes a code (the live set the
 * garbage collector lets the heap grow to a multiple of), here the code's characters and 4 bytes.
 */
export class CodeList {
  private constructor(
    private readonly text: string,
    private readonly ends: Uint32Array,
  ) {}

  static from(codes: Iterable<string>): CodeList {
    const unique = new Set(codes);
    const ends = new Uint32Array(unique.size);
    let end = 0;
    let i = 0;
    for (const code of unique) ends[i++] = end += code.length;
    return new CodeList([...unique].join(''), ends);
  }

  get length(): number {
    return this.ends.length;
  }

  at(i: number): string {
    return this.text.slice(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  /** The codes in batches of `size`, made as they are taken. */
  *batches(size: number): Generator<string[]> {
    for (let start = 0; start < this.length; start += size) {
      const batch: string[] = [];
      for (let i = start; i < Math.min(start + size, this.length); i++) batch.push(this.at(i));
      yield batch;
    }
  }
}
