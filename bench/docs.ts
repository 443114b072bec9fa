/**
 * Regenerates the figure tables of docs/benchmarks.md (between `<!-- bench:NAME -->` markers)
 * and the charts docs/bench/NAME.svg from the results already in bench/results/*.json, without
 * running anything: run benches one by one, then this.
 *   npm run bench:docs
 */
import { fileURLToPath } from 'node:url';
import { formatWithBiome } from './lib/format.js';
import { regenerateDocs } from './lib/regenerate.js';

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const done = regenerateDocs({
  resultsDir: root('bench/results'),
  docFile: root('docs/benchmarks.md'),
  svgDir: root('docs/bench'),
  svgLink: 'bench',
  format: formatWithBiome,
});
process.stdout.write(`docs/benchmarks.md: ${done.length ? done.join(', ') : 'no section'} regenerated\n`);
