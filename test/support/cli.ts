import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/wms-sync.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `wms-sync …` to completion in a child process with the given env (added to a clean one). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`wms-sync ${args.join(' ')} did not exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `wms-sync …` and leaves it running; the caller stops it. */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
}

/** Resolves with the first match of `pattern` in the child's stdout (accumulated), or rejects on exit/timeout. */
export function waitForOutput(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    let errors = '';
    const timer = setTimeout(() => done(new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${seen}\n${errors}`)), timeoutMs);
    const onData = (d: Buffer) => {
      seen += d;
      const m = seen.match(pattern);
      if (m) done(undefined, m);
    };
    const onErr = (d: Buffer) => (errors += d);
    const onExit = (code: number | null) => done(new Error(`exited with ${code} before printing ${pattern}:\n${seen}\n${errors}`));
    function done(err?: Error, m?: RegExpMatchArray) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onErr);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(m!);
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onErr);
    child.on('exit', onExit);
  });
}

export function exitOf(child: ChildProcessWithoutNullStreams, timeoutMs = 20_000): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error('child did not exit in time')), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}
