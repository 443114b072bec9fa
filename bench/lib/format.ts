import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

/** Runs the project's formatter (Biome) on a file the benches wrote, as `npm run format` would. */
export function formatWithBiome(file: string): void {
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  const done = spawnSync(process.execPath, [biome, 'format', '--write', file], { encoding: 'utf8' });
  if (done.status !== 0) process.stderr.write(`warning: biome could not format ${file}: ${done.stderr}\n`);
}
