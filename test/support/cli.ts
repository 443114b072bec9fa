import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { main } from '../../src/cli.js';

export const BIN = fileURLToPath(new URL('../../bin/wms-sync.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CapturedOutput {
  /** Pass it as `stdout`/`stderr` to `main`, or as a logger's destination. */
  stream: Writable;
  /** Everything written so far. */
  text(): string;
  clear(): void;
}

/** A stream that keeps what is written to it. */
export function captureOutput(): CapturedOutput {
  let chunks: string[] = [];
  return {
    stream: new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    text: () => chunks.join(''),
    clear: () => void (chunks = []),
  };
}

/** Runs `wms-sync …` in this process to completion (no stop signal), with the given env only. */
export async function runMain(
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; out: string; err: string }> {
  const out = captureOutput();
  const err = captureOutput();
  const code = await main(argv, {
    env,
    stdout: out.stream,
    stderr: err.stream,
    stopSignal: new Promise(() => undefined),
  });
  return { code, out: out.text(), err: err.text() };
}

/** Children still running when the file ends (a test failed before stopping its own) are killed, not left behind. */
const children = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

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
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Resolves with the first match of `pattern` in the child's stdout (accumulated), or rejects on exit/timeout. */
export function waitForOutput(
  child: ChildProcessWithoutNullStreams,
  pattern: RegExp,
  timeoutMs = 20_000,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    let errors = '';
    const timer = setTimeout(
      () => done(new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${seen}\n${errors}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      seen += d;
      const m = seen.match(pattern);
      if (m) done(undefined, m);
    };
    const onErr = (d: Buffer) => (errors += d);
    const onExit = (code: number | null) =>
      done(new Error(`exited with ${code} before printing ${pattern}:\n${seen}\n${errors}`));
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
