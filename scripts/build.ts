/**
 * `npm run build`: the production build in `dist/`. esbuild bundles `src/` with the pure-JavaScript
 * packages it uses into an entry and one chunk per lazily loaded command, then copies the static
 * assets the service serves (src/lib/assets.ts lists them) into `dist/assets/`. docs/operations.md
 * says why a bundle, measured against tsc's emit.
 */
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ASSET_SOURCES, type AssetName, assetSource } from '../src/lib/assets.js';
import { fromRoot } from '../src/lib/package-root.js';

/** Packages the bundle leaves to node_modules (the rest of `dependencies` is inside dist/). */
const EXTERNAL = ['better-sqlite3', 'pg', 'pg-native', 'pg-boss', 'pino'] as const;

const out = fromRoot('dist');
const started = performance.now();
rmSync(out, { recursive: true, force: true });

const result = await build({
  entryPoints: { cli: fromRoot('src', 'cli.ts') },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.12',
  // Loaded from node_modules at run time: a native addon, the Postgres driver whose instance pg-boss
  // and drizzle must share (and its optional native binding), and pino, whose transports load
  // files by path in worker threads. Every other package is bundled, tree-shaken.
  external: [...EXTERNAL],
  // Bundled CommonJS packages call require(); ESM output has none of its own.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  // Stack traces can name the sources' files and lines (NODE_OPTIONS=--enable-source-maps).
  sourcesContent: false,
  legalComments: 'none',
  metafile: true,
  tsconfig: fromRoot('tsconfig.json'),
  logLevel: 'warning',
});

mkdirSync(join(out, 'assets'), { recursive: true });
for (const name of Object.keys(ASSET_SOURCES) as AssetName[])
  copyFileSync(assetSource(name), join(out, 'assets', name));

const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
process.stdout.write(
  `dist/: ${files.length} modules (${(bytes / 1024).toFixed(0)} KiB) and ${Object.keys(ASSET_SOURCES).length} assets in ${Math.round(performance.now() - started)} ms\n`,
);
