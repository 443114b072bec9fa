/**
 * An OpenAPI operationId from words ("get", "delivery point") or kebab names ("delivery-points"):
 * `getDeliveryPoint`. Generated clients name their methods after it, so it must not change once
 * published.
 */
export function operationId(...parts: string[]): string {
  const words = parts.flatMap((p) => p.split(/[\s_-]+/)).filter(Boolean);
  return words
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
}
