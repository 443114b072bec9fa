// Child processes of the benches: a server started from a script or `bin/wms-sync.js`, ready once
// it printed where it listens.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a process and resolves with the URL it prints (`listening <url>`, or serve's JSON log line). */
export function startChild(args: string[], env: Record<string, string>): Promise<Child> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const early = (code: number | null) => reject(new Error(`${args.join(' ')} exited with ${code}`));
    proc.once('exit', early);
    const lines = createInterface({ input: proc.stdout! });
    lines.on('line', (line) => {
      const plain = /^listening (\S+)/.exec(line);
      let url = plain?.[1];
      if (!url && line.startsWith('{')) {
        try {
          const log = JSON.parse(line) as { msg?: string; url?: string };
          if (log.msg === 'wms-sync listening') url = log.url;
        } catch {
          // not a log line
        }
      }
      if (url) {
        proc.off('exit', early);
        resolve({
          url,
          proc,
          stop: () =>
            new Promise<void>((done) => {
              if (proc.exitCode !== null) return done();
              proc.once('exit', () => done());
              proc.kill('SIGTERM');
            }),
        });
      }
    });
  });
}
