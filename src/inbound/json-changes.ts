import type { EditChange } from '../store/types.js';

type Path = (string | number)[];

function format(path: Path): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out || '(body)';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The leaves that differ between two JSON values, as `{path, before, after}` (a member that is
 * absent on one side has no `before`/`after`): what an edit history shows as "what changed".
 */
export function jsonChanges(before: unknown, after: unknown, path: Path = []): EditChange[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => {
      if (!(k in after)) return [{ path: format([...path, k]), before: before[k] }];
      if (!(k in before)) return [{ path: format([...path, k]), after: after[k] }];
      return jsonChanges(before[k], after[k], [...path, k]);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: EditChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (i >= after.length) changes.push({ path: format([...path, i]), before: before[i] });
      else if (i >= before.length) changes.push({ path: format([...path, i]), after: after[i] });
      else changes.push(...jsonChanges(before[i], after[i], [...path, i]));
    }
    return changes;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: format(path), before, after }];
}
