/** Quantities are REAL; sums are rounded to 6 decimals so 0.1 + 0.2 answers 0.3. */
export function round(value: number): number {
  return Math.round(value * 1e6) / 1e6 + 0;
}

/** Comparisons of quantities that went through floating-point sums. */
export const EPSILON = 1e-9;
