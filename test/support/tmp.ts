import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory for one test file; remove it with the returned function. */
export function tempDir(label: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `wms-sync-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
