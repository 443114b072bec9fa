/**
 * `wms-sync events edit --set path=value`: paths as the problems name them (`lines[0].quantity`,
 * `packingList[1].lines[0].externalCode`); a value is read as JSON when it is JSON (numbers,
 * true/false, null, "quoted strings", arrays, objects) and as a plain string otherwise, so
 * `quantity=-12` is a number, `lotCode=null` is null, `productExternalCode=MILK-1L` a string and
 * `code="12"` the string "12".
 */

export class PathError extends Error {}

export function parseSetting(setting: string): { path: (string | number)[]; value: unknown } {
  const eq = setting.indexOf('=');
  if (eq <= 0) throw new PathError(`--set ${setting}: expected path=value`);
  return { path: parsePath(setting.slice(0, eq)), value: settingValue(setting.slice(eq + 1)) };
}

export function settingValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function parsePath(text: string): (string | number)[] {
  const parts: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|(\.)/gy;
  let m: RegExpExecArray | null;
  let expectName = true;
  while (re.lastIndex < text.length && (m = re.exec(text))) {
    if (m[1] !== undefined) {
      if (!expectName) throw new PathError(`path "${text}": expected "." or "[" before "${m[1]}"`);
      parts.push(m[1]);
      expectName = false;
    } else if (m[2] !== undefined) {
      parts.push(Number(m[2]));
      expectName = false;
    } else expectName = true;
  }
  if (re.lastIndex !== text.length || parts.length === 0 || expectName)
    throw new PathError(`path "${text}" is not of the form a.b[0].c`);
  return parts;
}

/** A copy of `root` with the value at `path` set; missing objects are created, an array may grow by one. */
export function setPath(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    if (!Array.isArray(root)) throw new PathError(`[${head}]: not an array here`);
    if (head > root.length) throw new PathError(`[${head}]: the array has ${root.length} items`);
    const copy = [...root];
    copy[head] = setPath(root[head], rest, value);
    return copy;
  }
  const base = root === undefined || root === null ? {} : root;
  if (typeof base !== 'object' || Array.isArray(base)) throw new PathError(`${head}: not an object here`);
  return {
    ...(base as Record<string, unknown>),
    [head!]: setPath((base as Record<string, unknown>)[head!], rest, value),
  };
}
