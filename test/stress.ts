/**
 * `npm run test:stress`: the whole suite several times in a row (3 by default) with a CPU hog
 * (`node -e "for(;;){}"`) running beside it, as on a busy 2-core CI machine; the first failing
 * run ends it with vitest's exit code. TEST_DATABASE_URL is passed through, so the Postgres
 * suites run when it is set. Arguments after `--` go to vitest (files, `-t`), `--runs N` changes
 * the count: `npm run test:stress -- --runs 5 test/push/push-flow.test.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

// `--runs N` is ours; everything else goes to vitest as given (`--exclude GLOB`, files, `-t NAME`).
const { values, tokens } = parseArgs({
  options: { runs: { type: 'string', default: '3' } },
  allowPositionals: true,
  strict: false,
  tokens: true,
});
const vitestArgs = tokens.flatMap((t) => {
  if (t.kind === 'option') return t.name === 'runs' ? [] : t.inlineValue ? [`${t.rawName}=${t.value}`] : [t.rawName];
  return t.kind === 'positional' ? [t.value] : ['--'];
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(`test:stress: --runs takes a whole number of runs, got ${String(values.runs)}\n`);
  process.exit(2);
}
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const backends = process.env.TEST_DATABASE_URL
  ? 'SQLite and Postgres'
  : 'SQLite only (set TEST_DATABASE_URL for the Postgres suites)';

const hog = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
let current: ChildProcess | undefined;
const stop = (code: number): never => {
  hog.kill('SIGKILL');
  current?.kill('SIGTERM');
  process.exit(code);
};
process.on('SIGINT', () => stop(130));
process.on('SIGTERM', () => stop(143));

for (let run = 1; run <= runs; run++) {
  process.stdout.write(`\n== test:stress run ${run}/${runs}, ${backends}, a CPU hog beside it (pid ${hog.pid})\n`);
  const started = Date.now();
  const code = await new Promise<number>((resolve) => {
    current = spawn(process.execPath, [vitest, 'run', ...vitestArgs], { stdio: 'inherit', env: process.env });
    current.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  if (code !== 0) {
    process.stdout.write(`\n== test:stress: run ${run}/${runs} failed after ${seconds} s (exit ${code})\n`);
    stop(code);
  }
  process.stdout.write(`\n== test:stress: run ${run}/${runs} passed in ${seconds} s\n`);
}
process.stdout.write(`\n== test:stress: ${runs === 1 ? 'the run' : `${runs} runs in a row`} passed\n`);
stop(0);
