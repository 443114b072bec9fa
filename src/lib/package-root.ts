import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

/** The nearest folder above `from` holding a package.json: the package's own root. */
function rootAbove(from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/**
 * The package's root folder, found from where this code runs: `src/lib/` in a development tree, a
 * file of the `dist/` bundle in a built one. Migrations, fixtures and built assets are read from it,
 * so neither layout depends on the other's depth.
 */
export const PACKAGE_ROOT = rootAbove(here);

export const fromRoot = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);

/** True when this process runs the build output (`dist/`), false when it runs the sources. */
export const RUNS_BUILT = here.startsWith(fromRoot('dist') + sep);
