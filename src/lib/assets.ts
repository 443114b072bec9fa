import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromRoot, RUNS_BUILT } from './package-root.js';

/**
 * The root folder of an installed package (the nearest folder above its entry point whose
 * package.json names it). Packages whose `exports` hide `package.json` cannot be asked directly.
 */
export function packageRoot(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name)
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the root folder of package ${name}`);
    dir = parent;
  }
}

/** A file inside an installed package, e.g. `packageFile('htmx.org', 'dist/htmx.min.js')`. */
export function packageFile(name: string, path: string): string {
  return join(packageRoot(name), path);
}

/**
 * The static files the service serves. The build copies each into `dist/assets/` (scripts/build.ts
 * reads this list), so a production tree needs neither the sources nor the packages they come
 * from: htmx and the API reference's browser bundle are development dependencies.
 */
export const ASSET_SOURCES = {
  'console.css': { file: 'src/console/assets/console.css' },
  'console.js': { file: 'src/console/assets/console.js' },
  'htmx.min.js': { package: 'htmx.org', file: 'dist/htmx.min.js' },
  'api-reference.js': { package: 'redoc', file: 'bundles/redoc.standalone.js' },
} as const;

export type AssetName = keyof typeof ASSET_SOURCES;

/** Where an asset's source is in a development tree. */
export function assetSource(name: AssetName): string {
  const source: { file: string; package?: string } = ASSET_SOURCES[name];
  return source.package ? packageFile(source.package, source.file) : fromRoot(source.file);
}

/** The file to serve: the built copy when running `dist/`, the source otherwise. */
export function assetFile(name: AssetName): string {
  return RUNS_BUILT ? fromRoot('dist', 'assets', name) : assetSource(name);
}
