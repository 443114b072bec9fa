import { type FieldIssue, formatPath } from './zod-issues.js';

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/** Deepest nesting of objects and arrays a payload may have; no WMS or ERP document comes near it. */
export const MAX_PAYLOAD_DEPTH = 64;
export const DEPTH_MESSAGE = `nests objects or arrays more than ${MAX_PAYLOAD_DEPTH} levels deep`;

/** Segments of a path a message names; a longer one ends with `…`. */
const SHOWN_SEGMENTS = 8;

interface Node {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Node | undefined;
  depth: number;
}

function pathOf(node: Node | undefined, extra?: PropertyKey): string {
  const parts: PropertyKey[] = extra === undefined ? [] : [extra];
  for (let n = node; n?.parent; n = n.parent) parts.push(n.key!);
  parts.reverse();
  return parts.length > SHOWN_SEGMENTS ? `${formatPath(parts.slice(0, SHOWN_SEGMENTS))}…` : formatPath(parts);
}

/**
 * What makes a parsed JSON value unstorable, as a field issue: U+0000 in a string or a key
 * (Postgres text and jsonb cannot store it, SQLite can, so it is refused on both rather than a
 * 500 on one), or nesting deeper than `MAX_PAYLOAD_DEPTH`. Walked with an explicit stack and
 * parent links, so a hostile depth costs neither the call stack nor a copy of the path per level;
 * the path named is at most `SHOWN_SEGMENTS` long. Undefined when the value is fine. With
 * `{ nul: false }` only the depth is checked (the webhook receiver checks U+0000 on the fields it
 * reads, and quarantines rather than refuses).
 */
export function payloadIssue(value: unknown, options: { nul?: boolean } = {}): FieldIssue | undefined {
  const nul = options.nul ?? true;
  const stack: Node[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (nul && v.includes('\u0000')) return { path: pathOf(node), message: NUL_MESSAGE };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const depth = node.depth + 1;
    if (depth > MAX_PAYLOAD_DEPTH) return { path: pathOf(node), message: DEPTH_MESSAGE };
    const children: Node[] = [];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) children.push({ value: v[i], key: i, parent: node, depth });
    } else {
      for (const [key, member] of Object.entries(v)) {
        if (nul && key.includes('\u0000'))
          return { path: pathOf(node, key.replaceAll('\u0000', '\\u0000')), message: NUL_MESSAGE };
        children.push({ value: member, key, parent: node, depth });
      }
    }
    // Reversed so the first problem in document order is the one reported.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}

/**
 * Whether a JSON text can hold what `payloadIssue` refuses: U+0000 can only be written as the
 * escape `\u0000`, and nesting deeper than the limit needs more opening brackets than the limit.
 * Lets the webhook receiver skip the walk for ordinary bodies.
 */
export function mayNeedPayloadCheck(jsonText: string): boolean {
  if (jsonText.includes('\\u0000')) return true;
  let open = 0;
  for (let i = 0; i < jsonText.length; i++) {
    const c = jsonText.charCodeAt(i);
    if ((c === 0x5b || c === 0x7b) && ++open > MAX_PAYLOAD_DEPTH) return true;
  }
  return false;
}

/**
 * The deepest nesting of objects and arrays in a JSON text, counted over the text (brackets
 * inside strings left out) without parsing or recursion: a stored body nested thousands deep is
 * measured before anything recursive (JSON.stringify, a pretty-printer) touches it.
 */
export function jsonTextDepth(jsonText: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < jsonText.length; i++) {
    const c = jsonText.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
