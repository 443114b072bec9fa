import type { z } from 'zod';

export interface FieldIssue {
  path: string;
  message: string;
}

/** `lines[0].quantity` style path, the way an operator reading the message would write it. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(body)';
}

export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
}

/** One line naming every offending field, e.g. `lines[0].quantity: expected number, received string`. */
export function issuesMessage(error: z.ZodError): string {
  return fieldIssues(error)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ');
}
