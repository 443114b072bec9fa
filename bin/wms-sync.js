#!/usr/bin/env node
// A production tree (the image: dist/ and no src/) runs the build. A development tree runs the
// build when it was made from the sources as they are now (`npm install` makes one through the
// `prepare` script), and otherwise the TypeScript sources through tsx, so an edit is never hidden
// behind a stale build. The build starts in about a third of the time tsx takes to compile the
// sources (docs/operations.md, "Building and the image").
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isBuildFresh } from './fresh-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = new URL('../src/cli.ts', import.meta.url);
let cli;
if (!existsSync(sources) || isBuildFresh(root)) {
  cli = await import('../dist/cli.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(sources.href);
}
process.exitCode = await cli.main(process.argv.slice(2));
