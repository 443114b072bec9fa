import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imageCopies } from '../../scripts/production-tree.js';
import { ASSET_SOURCES, type AssetName, assetFile, assetSource } from '../../src/lib/assets.js';
import { fromRoot, RUNS_BUILT } from '../../src/lib/package-root.js';
import { tempDir } from '../support/tmp.js';

// The CI check lays out the image's tree from the Dockerfile's COPY lines: these tests keep that
// reading honest, and the development tree serving its assets from their sources.
describe('the image tree, read from the Dockerfile', () => {
  const tmp = tempDir('dockerfile');
  afterAll(() => tmp.remove());

  it("holds the build's output, production node_modules, migrations and what start and demo read", () => {
    const copies = imageCopies();
    expect(copies.filter((c) => c.from === 'build').map((c) => c.target)).toEqual([
      'package.json',
      'node_modules',
      'dist',
    ]);
    expect(copies.filter((c) => c.from === 'context').map((c) => c.target)).toEqual(['bin', 'drizzle', 'fixtures']);
    for (const copy of copies.filter((c) => c.from === 'context')) expect(existsSync(fromRoot(copy.source))).toBe(true);
    // No sources in the image: bin/wms-sync.js must run dist/.
    expect(copies.map((c) => c.target)).not.toContain('src');
  });

  it('reads the last stage only, and refuses a COPY line it cannot mirror', () => {
    const file = join(tmp.dir, 'Dockerfile');
    writeFileSync(file, 'FROM a AS build\nCOPY src ./src\nFROM b\nCOPY --from=build --chown=x:y /app/dist ./dist\n');
    expect(imageCopies(file)).toEqual([{ from: 'build', source: 'dist', target: 'dist' }]);
    writeFileSync(file, 'FROM b\nCOPY bin drizzle ./\n');
    expect(() => imageCopies(file)).toThrow(/one source and one target/);
    writeFileSync(file, 'FROM b\nRUN true\n');
    expect(() => imageCopies(file)).toThrow(/no COPY line/);
  });
});

describe('assets in a development tree', () => {
  it('are served from their sources, each of which exists', () => {
    expect(RUNS_BUILT).toBe(false);
    for (const name of Object.keys(ASSET_SOURCES) as AssetName[]) {
      expect(assetFile(name)).toBe(assetSource(name));
      expect(existsSync(assetFile(name)), name).toBe(true);
    }
  });
});
