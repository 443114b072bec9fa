import { errorMessage } from './errors.js';

export interface ProbeResult {
  ok: boolean;
  /** 'ok', or why the check failed (including "no answer within N ms"). */
  message: string;
  ms: number;
}

/** Runs a health check with a deadline: a dependency that hangs is as unhealthy as one that fails. */
export async function probe(check: () => Promise<void>, timeoutMs: number): Promise<ProbeResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const ms = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    await Promise.race([
      check(),
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)),
      ),
    ]);
    return { ok: true, message: 'ok', ms: ms() };
  } catch (err) {
    return { ok: false, message: errorMessage(err), ms: ms() };
  } finally {
    clearTimeout(timer);
  }
}
