/** GS1 mod-10 check digit: weights 3 and 1 alternating from the rightmost digit. */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const fromRight = digits.length - 1 - i;
    sum += Number(digits[i]) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** An SSCC: 18 digits whose last is the GS1 check digit. */
export function isSscc(value: string): boolean {
  return /^\d{18}$/.test(value) && gs1CheckDigit(value.slice(0, 17)) === Number(value[17]);
}

// Extension digit 0 and the demo GS1 company prefix 5601234 (Portugal's 560 range, as the demo barcodes).
const PREFIX = '05601234';

/** The emulator's SSCC for a packing id: prefix, the id as a 9-digit serial reference, check digit. */
export function ssccFor(packingId: number): string {
  const body = `${PREFIX}${String(packingId % 1e9).padStart(9, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
}
