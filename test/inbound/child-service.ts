import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/wms-sync.js', import.meta.url));

export interface ChildService {
  url: string;
  process: ChildProcess;
  /** SIGKILL: no shutdown code runs, as in a crash or an OOM kill. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

/** `node bin/wms-sync.js serve` in a child process; resolves once it logs the URL it listens on. */
export function spawnService(env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<ChildService> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(String(d)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`wms-sync serve did not start within ${timeoutMs} ms: ${stderr.join('')}`));
    }, timeoutMs);
    const early = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`wms-sync serve exited with ${code}: ${stderr.join('')}`));
    };
    child.once('exit', early);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = /"url":"(http:\/\/[^"]+)"/.exec(line)?.[1];
      if (!url || !line.includes('wms-sync listening')) return;
      clearTimeout(timer);
      child.off('exit', early);
      resolve({
        url,
        process: child,
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
