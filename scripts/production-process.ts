/**
 * `node bin/wms-sync.js …` run in a production tree (scripts/production-tree.ts), as the image
 * runs it: NODE_ENV=production, and, when this process is root, as the unprivileged user `nobody`
 * with the tree read-only to it and TMPDIR and HOME pointing into the tree, so a write outside
 * DATA_DIR fails as it would on a read-only root filesystem.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const asRoot = process.getuid?.() === 0;
const nobody = asRoot
  ? {
      uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })),
      gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })),
    }
  : undefined;

/** A folder the service may write (its DATA_DIR): owned by the user the processes run as. */
export function dataDir(tree: string, name: string): string {
  const dir = join(tree, '..', `${name}`);
  mkdirSync(dir, { recursive: true });
  if (nobody) chownSync(dir, nobody.uid, nobody.gid);
  return dir;
}

/** Makes the tree readable (not writable) by the processes' user. */
export function openTree(tree: string): void {
  chmodSync(tree, 0o755);
}

export interface ProductionProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first match of `pattern` in its output; rejects if it exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM; resolves with the exit code (null when killed after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<number | null>;
  /** Resolves with the exit code once it ends by itself. */
  exited: Promise<number | null>;
}

/** `developer`: run as a developer would in a checkout (this user, its HOME and TMPDIR, no NODE_ENV). */
export function startProduction(
  tree: string,
  args: string[],
  env: Record<string, string>,
  options: { developer?: boolean } = {},
): ProductionProcess {
  const child = spawn(process.execPath, ['bin/wms-sync.js', ...args], {
    cwd: tree,
    env: options.developer
      ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tree, ...env }
      : { PATH: process.env.PATH ?? '', HOME: tree, TMPDIR: tree, NODE_ENV: 'production', ...env },
    ...(nobody && !options.developer ? { uid: nobody.uid, gid: nobody.gid } : {}),
  });
  let text = '';
  const waiters = new Set<() => void>();
  const onLine = (line: string) => {
    text += `${line}\n`;
    for (const w of waiters) w();
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const w of waiters) w();
  });
  return {
    child,
    exited,
    output: () => text,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`no ${pattern} within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          const m = pattern.exec(text);
          if (m) return done(undefined, m);
          if (ended) done(new Error(`wms-sync ${args.join(' ')} exited before printing ${pattern}`));
        };
        function done(err?: Error, m?: RegExpMatchArray) {
          clearTimeout(timer);
          waiters.delete(check);
          if (err) reject(new Error(`${err.message}\n--- its output:\n${text}`));
          else resolve(m!);
        }
        waiters.add(check);
        check();
      }),
    stop: async (timeoutMs = 30_000) => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The URL `serve` logs once it listens. */
export const SERVE_LISTENING = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"wms-sync listening"/;
/** The URL `emulator` prints once it listens. */
export const EMULATOR_LISTENING = /WMS emulator listening on (http:\/\/\S+)/;
