#!/usr/bin/env node
// A development tree (src/ present) runs the TypeScript sources through tsx, so what runs is what
// was just edited and the tests exercise the sources, never a stale build. A production tree (the
// image: dist/ and no src/) runs the build `npm run build` made, with no compiler at all.
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli.ts', import.meta.url);
let cli;
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(sources.href);
} else {
  cli = await import('../dist/cli.js');
}
process.exitCode = await cli.main(process.argv.slice(2));
