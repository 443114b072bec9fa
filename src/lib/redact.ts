/**
 * Secrets by key name, at any depth: pino's redaction paths name each place a secret may sit
 * (`*.*.password`…) and cannot say "anywhere", so a secret one level deeper than the list was
 * written in clear. This walk censors every value whose key names a secret, in objects, arrays,
 * errors and their causes, and copies only what it changes (the caller's object is left as is).
 */

/** A key names a secret when it ends with one of these words, in any case, `_`/`-` joined or not. */
const SECRET_KEY = /(?:authorization|password|passwd|secret|token|cookie|credentials|api[-_]?key)$/i;

export const CENSOR = '[redacted]';

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** `value` with every secret censored; the same object when there was none. */
export function redactSecrets<T>(value: T): T {
  return walk(value, []) as T;
}

// No depth limit: pino writes a line with JSON.stringify, which has none either.
function walk(value: unknown, ancestors: object[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value) || value instanceof Date) return value;
  // What the serializer writes for a cycle; the ancestor itself may be a copy not made yet.
  if (ancestors.includes(value)) return '[Circular]';
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const redacted = walk(item, ancestors);
        if (redacted !== item) (copy ??= value.slice())[i] = redacted;
      }
      return copy ?? value;
    }
    const source = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    const keys = Object.keys(source);
    // An error's cause is not enumerable, and pino's error serializer writes it.
    if (value instanceof Error && 'cause' in value && !keys.includes('cause')) keys.push('cause');
    for (const key of keys) {
      const item = source[key];
      const redacted = isSecretKey(key) ? (item === undefined || item === null ? item : CENSOR) : walk(item, ancestors);
      if (redacted === item) continue;
      copy ??= copyOf(source);
      Object.defineProperty(copy, key, { value: redacted, enumerable: true, writable: true, configurable: true });
    }
    return copy ?? value;
  } finally {
    ancestors.pop();
  }
}

/** A shallow copy that keeps the prototype (an error stays an error for pino's serializer). */
function copyOf(source: Record<string, unknown>): Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(source);
  if (proto === Object.prototype || proto === null) return { ...source };
  return Object.create(proto as object, Object.getOwnPropertyDescriptors(source)) as Record<string, unknown>;
}
