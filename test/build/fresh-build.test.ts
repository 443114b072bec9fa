import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error bin/ is plain JavaScript without declarations
import { isBuildFresh } from '../../bin/fresh-build.js';
import { tempDir } from '../support/tmp.js';

// bin/wms-sync.js runs dist/ in a checkout only while it is newer than everything the build reads.
describe('whether dist/ is fresh in a checkout', () => {
  const tmp = tempDir('fresh-build');
  afterAll(() => tmp.remove());
  const at = (path: string, seconds: number) => {
    const file = join(tmp.dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, path);
    utimesSync(file, seconds, seconds);
  };
  const inputs = ['src/cli.ts', 'src/lib/deep/config.ts', 'package-lock.json', 'tsconfig.json', 'scripts/build.ts'];
  const fresh = (): boolean => isBuildFresh(tmp.dir);

  it('is not fresh when nothing was built', () => {
    for (const input of inputs) at(input, 1_000);
    expect(fresh()).toBe(false);
  });

  it('is fresh when the build is newer than every input', () => {
    for (const input of inputs) at(input, 1_000);
    for (const dir of ['src', 'src/lib', 'src/lib/deep', 'scripts']) utimesSync(join(tmp.dir, dir), 1_000, 1_000);
    at('dist/cli.js', 2_000);
    expect(fresh()).toBe(true);
  });

  it.each(inputs)('is stale once %s changes after the build', (input) => {
    for (const other of inputs) at(other, 1_000);
    for (const dir of ['src', 'src/lib', 'src/lib/deep', 'scripts']) utimesSync(join(tmp.dir, dir), 1_000, 1_000);
    at('dist/cli.js', 2_000);
    at(input, 3_000);
    expect(fresh()).toBe(false);
  });

  it('is stale when a file is added under src/', () => {
    for (const input of inputs) at(input, 1_000);
    at('dist/cli.js', 2_000);
    at('src/new-module.ts', 3_000);
    expect(fresh()).toBe(false);
  });
});
