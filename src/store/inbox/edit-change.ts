/** One leaf an operator's correction changed: its path (`lines[0].quantity`), before and after (undefined = absent). */
export interface EditChange {
  path: string;
  before?: unknown;
  after?: unknown;
}
