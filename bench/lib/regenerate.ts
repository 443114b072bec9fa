import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { figuresOf, type ResultsFile, renderSection, renderSvg, replaceSection } from './docs.js';
import { GOAL_READERS } from './goals.js';

export interface RegenerateOptions {
  resultsDir: string;
  docFile: string;
  svgDir: string;
  /** The SVGs' directory as the doc links it, e.g. `bench`. */
  svgLink: string;
  warn?: (message: string) => void;
  /** Formats the written document (the project's formatter), so that a regeneration leaves it lint-clean. */
  format?: (file: string) => void;
}

/**
 * Regenerates the doc's bench sections and the SVG charts from every results file. Returns the
 * names of the sections it rewrote; what it left alone is said through `warn`.
 */
export function regenerateDocs(options: RegenerateOptions): string[] {
  const warn = options.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
  let doc = readFileSync(options.docFile, 'utf8');
  const done: string[] = [];
  const files = readdirSync(options.resultsDir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const f of files) {
    const name = basename(f, '.json');
    let file: ResultsFile;
    try {
      file = JSON.parse(readFileSync(join(options.resultsDir, f), 'utf8')) as ResultsFile;
    } catch (err) {
      warn(`${f}: not JSON (${(err as Error).message}); its section is left as it is`);
      continue;
    }
    const figures = figuresOf(file);
    if (!figures.tables || !figures.chart) {
      warn(`${f} has no \`tables\`/\`chart\` (written before the bench gave them?): section "${name}" left as it is`);
      continue;
    }
    mkdirSync(options.svgDir, { recursive: true });
    writeFileSync(
      join(options.svgDir, `${name}.svg`),
      renderSvg(`${name}: wms-sync against the same run's baseline`, figures.chart),
    );
    const section = renderSection(name, file, `${options.svgLink}/${name}.svg`, GOAL_READERS[name]?.(file))!;
    const replaced = replaceSection(doc, name, section);
    if (!replaced.replaced) {
      warn(
        `${options.docFile} has no <!-- bench:${name} --> … <!-- /bench:${name} --> markers: ${name}.svg written, tables not placed`,
      );
      continue;
    }
    doc = replaced.doc;
    done.push(name);
  }
  writeFileSync(options.docFile, doc);
  options.format?.(options.docFile);
  return done;
}
