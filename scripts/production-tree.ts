/**
 * Lays out, in a folder, exactly the tree the Dockerfile's runtime stage holds: its COPY lines are
 * read from the Dockerfile, so the two cannot drift. Files copied from the build context come from
 * this checkout; files copied from the build stage are made the way that stage makes them:
 * `dist/` by `npm run build`, `node_modules` by `npm ci --omit=dev` (from the npm cache) trimmed by
 * scripts/trim-node-modules.sh. Install scripts are skipped and better-sqlite3's compiled addon is
 * taken from this checkout's node_modules (the same locked version, built for this machine), where
 * the image's build stage compiles it: compiling it again would add a minute to every CI run.
 * Used by scripts/check-production-tree.ts and bench/footprint.ts.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fromRoot } from '../src/lib/package-root.js';

export interface ImageCopy {
  /** `build` for `COPY --from=build`, `context` for a file of the checkout. */
  from: 'build' | 'context';
  /** Path in the checkout (`/app/` stripped for the build stage's files). */
  source: string;
  /** Path in the image's working directory. */
  target: string;
}

/** The runtime stage's COPY lines (the last stage of the Dockerfile). */
export function imageCopies(dockerfile = fromRoot('Dockerfile')): ImageCopy[] {
  const stages = readFileSync(dockerfile, 'utf8').split(/^FROM\s/m);
  const runtime = stages[stages.length - 1] ?? '';
  const copies: ImageCopy[] = [];
  for (const line of runtime.split('\n')) {
    const m = /^COPY\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    const words = m[1]!.split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    const [source, target] = words.filter((w) => !w.startsWith('--'));
    if (!source || !target || words.length - flags.length !== 2)
      throw new Error(`Dockerfile: cannot read "${line.trim()}" (one source and one target expected)`);
    const fromBuild = flags.some((f) => f === '--from=build');
    copies.push({
      from: fromBuild ? 'build' : 'context',
      source: fromBuild ? source.replace(/^\/app\//, '') : source,
      target: target.replace(/^\.\//, ''),
    });
  }
  if (copies.length === 0) throw new Error('Dockerfile: no COPY line in its last stage');
  return copies;
}

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** Production node_modules in `dir` (which holds package.json and package-lock.json), trimmed. */
function installProduction(dir: string): void {
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], dir);
  const addon = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(dirname(join(dir, addon)), { recursive: true });
  cpSync(fromRoot(addon), join(dir, addon));
  run('sh', [fromRoot('scripts', 'trim-node-modules.sh'), join(dir, 'node_modules')], dir);
}

/**
 * Builds `dist/` in this checkout (unless `build: false`) and lays out the image's tree in `dir`.
 * Returns the COPY lines it followed.
 */
export function makeProductionTree(dir: string, options: { build?: boolean } = {}): ImageCopy[] {
  if (options.build !== false) run('npm', ['run', '--silent', 'build'], fromRoot());
  const copies = imageCopies();
  mkdirSync(dir, { recursive: true });
  for (const copy of copies) {
    if (copy.from === 'build' && copy.source === 'node_modules') {
      cpSync(fromRoot('package-lock.json'), join(dir, 'package-lock.json'));
      if (!existsSync(join(dir, 'package.json'))) cpSync(fromRoot('package.json'), join(dir, 'package.json'));
      installProduction(dir);
      rmSync(join(dir, 'package-lock.json'));
      continue;
    }
    const source = fromRoot(copy.source);
    if (!existsSync(source)) throw new Error(`${copy.source}: missing (the Dockerfile copies it)`);
    cpSync(source, join(dir, copy.target), { recursive: true });
  }
  return copies;
}
