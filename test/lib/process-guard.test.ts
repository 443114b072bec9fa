import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isPeerError, UNSAFE_EXIT_CODE } from '../../src/lib/process-guard.js';

const CHILD = fileURLToPath(new URL('../support/guarded-child.ts', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('process guard', { timeout: 60_000 }, () => {
  it("a peer's socket error that escapes every handler is logged and counted, and the process goes on", async () => {
    const { code, stdout } = await run([]);
    expect(code).toBe(0);
    expect(stdout).toContain('STILL ALIVE');
    expect(stdout).toContain('wms_sync_unexpected_errors_total{kind="uncaught_exception",action="continued"} 1');
    expect(stdout).toContain('wms_sync_unexpected_errors_total{kind="unhandled_rejection",action="continued"} 1');
    expect(stdout).toMatch(/"err":"write EPIPE".*unexpected error from a peer connection/);
  });

  it('any other escaped error exits with status 70 for the supervisor, the reason logged first', async () => {
    const { code, stdout } = await run(['--then-bug']);
    expect(code).toBe(UNSAFE_EXIT_CODE);
    const fatal = stdout.split('\n').find((l) => l.includes('"level":60'));
    expect(fatal).toBeDefined();
    expect(JSON.parse(fatal!)).toMatchObject({
      kind: 'uncaught_exception',
      exitCode: 70,
      msg: 'unexpected error; the process exits for its supervisor to restart it',
    });
    expect(fatal).toContain("Cannot read properties of undefined (reading 'csrf')");
  });

  it('tells peer errors from the rest', () => {
    for (const code of ['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET', 'ERR_STREAM_PREMATURE_CLOSE'])
      expect(isPeerError(Object.assign(new Error(code), { code }))).toBe(true);
    expect(isPeerError(new TypeError('x is undefined'))).toBe(false);
    expect(isPeerError(new RangeError('Maximum call stack size exceeded'))).toBe(false);
    expect(isPeerError(undefined)).toBe(false);
    expect(isPeerError({ cause: { code: 'ECONNRESET' } })).toBe(true);
  });
});
