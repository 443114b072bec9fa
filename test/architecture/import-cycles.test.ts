import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/tmp.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The import graph of the TypeScript files under `root`, as TypeScript's own scanner reads them:
 * every `import`, `import type`, `export … from`, `import()` and `require()` of a relative path,
 * resolved as NodeNext does (`./x.js` is `./x.ts`). A relative import that resolves to no file
 * is an error, so nothing escapes the check unseen.
 */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      importedFiles
        .filter((i) => i.fileName.startsWith('.'))
        .map((i) => {
          const base = resolve(dirname(file), i.fileName).replace(/\.(js|jsx|ts|tsx)$/, '');
          const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) =>
            statSync(c, { throwIfNoEntry: false })?.isFile(),
          );
          if (!target) throw new Error(`${relative(root, file)}: cannot resolve ${i.fileName}`);
          return target;
        }),
    );
  }
  return graph;
}

/** Each cycle once, as the files of one strongly connected component (Tarjan), relative to `root`. */
function cycles(graph: Map<string, string[]>, root: string): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(relative(root, w));
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('import cycles', () => {
  it('src/ has none, type-only imports included', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(200);
    expect(cycles(graph, SRC)).toEqual([]);
  });

  it('the check sees a cycle made only of type imports, through a re-export', () => {
    const tmp = tempDir('import-cycles');
    try {
      mkdirSync(join(tmp.dir, 'room'));
      writeFileSync(join(tmp.dir, 'a.ts'), "import type { C } from './room/index.js';\nexport interface A { c: C }\n");
      writeFileSync(join(tmp.dir, 'room', 'index.ts'), "export type { C } from './c.js';\n");
      writeFileSync(join(tmp.dir, 'room', 'c.ts'), "import type { A } from '../a.js';\nexport interface C { a: A }\n");
      writeFileSync(join(tmp.dir, 'leaf.ts'), "import type { A } from './a.js';\nexport type L = A;\n");
      expect(cycles(importGraph(tmp.dir), tmp.dir)).toEqual([['a.ts', 'room/c.ts', 'room/index.ts']]);
    } finally {
      tmp.remove();
    }
  });

  it('an import that resolves to no file fails the check instead of leaving the graph', () => {
    const tmp = tempDir('import-cycles');
    try {
      writeFileSync(join(tmp.dir, 'a.ts'), "import { gone } from './gone.js';\nexport const a = gone;\n");
      expect(() => importGraph(tmp.dir)).toThrow(/a\.ts: cannot resolve \.\/gone\.js/);
    } finally {
      tmp.remove();
    }
  });
});
