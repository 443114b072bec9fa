import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export type Generator = 'wrk' | 'autocannon';

export interface LoadResult {
  /** 2xx answers per second over the measured time. */
  reqPerSec: number;
  p50: number;
  p99: number;
  /** 2xx answers. */
  ok: number;
  /** Non-2xx answers, socket errors and timeouts. */
  errors: number;
}

export interface LoadOptions {
  url: string;
  seconds: number;
  connections: number;
  /** JSON body with `[<id>]` where a fresh id goes in each request. */
  body: string;
  authorization: string;
  /** Makes ids unique across the runs against one database. */
  runId: string;
}

const run = promisify(execFile);

export async function wrkAvailable(): Promise<boolean> {
  try {
    await run('wrk', ['--version']).catch((err: { stdout?: string }) => {
      if (!err.stdout?.includes('wrk')) throw err;
    });
    return true;
  } catch {
    return false;
  }
}

/** wrk, one thread (enough on 2 cores; it leaves the server the other core), `--latency`. */
async function wrk(o: LoadOptions): Promise<LoadResult> {
  const script = fileURLToPath(new URL('./ingest.lua', import.meta.url));
  const { stdout } = await run(
    'wrk',
    ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', '-s', script, o.url],
    {
      env: { ...process.env, WRK_BODY: o.body, WRK_AUTH: o.authorization, WRK_RUN: o.runId },
    },
  );
  const ms = (label: string) => {
    const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(stdout);
    if (!m) throw new Error(`wrk output without the ${label}% latency:\n${stdout}`);
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
  };
  const total = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  const ok = total - non2xx;
  return { reqPerSec: ok / o.seconds, p50: ms('50'), p99: ms('99'), ok, errors: non2xx + socketErrors };
}

async function cannon(o: LoadOptions): Promise<LoadResult> {
  let n = 0;
  const r = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.seconds,
    // autocannon's own idReplacement assumes 27-character ids and sends a wrong Content-Length.
    requests: [
      {
        method: 'POST',
        headers: { authorization: o.authorization, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: o.body.replace('[<id>]', `${o.runId}-${(n += 1)}`) }),
      },
    ],
  });
  return {
    reqPerSec: r['2xx'] / o.seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

export function load(generator: Generator, o: LoadOptions): Promise<LoadResult> {
  return generator === 'wrk' ? wrk(o) : cannon(o);
}
