// `npm install` and `npm ci` in a checkout run this (npm's `prepare`): it builds dist/ so that
// `npm start` runs the build. It does nothing where there is nothing to build or nothing to build
// with: the image's first `npm ci` (no sources yet) and a production install (no tsx).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let tsx;
try {
  tsx = require.resolve('tsx/cli');
} catch {
  tsx = undefined;
}
if (existsSync(new URL('../src/cli.ts', import.meta.url)) && tsx) {
  execFileSync(process.execPath, [tsx, 'scripts/build.ts'], {
    cwd: new URL('..', import.meta.url),
    stdio: 'inherit',
  });
}
