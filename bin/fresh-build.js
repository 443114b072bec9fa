// Whether dist/ was built from the sources as they are now. Kept apart from bin/wms-sync.js so a
// test can call it on a folder of its own.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the build reads: every file under src/, and the files that decide what it bundles. */
const INPUTS = ['src', 'package-lock.json', 'tsconfig.json', 'scripts/build.ts'];

function newestChange(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true })) {
    const mtime = statSync(join(path, entry)).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/**
 * True when `dist/cli.js` is newer than every input of the build: an edit, a checkout or a new
 * lock file since the last build makes it false (about 5 ms for the ~500 files here).
 */
export function isBuildFresh(root) {
  const built = statSync(join(root, 'dist', 'cli.js'), { throwIfNoEntry: false });
  if (!built) return false;
  return INPUTS.every((input) => newestChange(join(root, input)) < built.mtimeMs);
}
