import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/**
 * The project speaks of itself only: docs, comments, test names and bench output describe what the
 * code does today, and git keeps how it got there. This file fails when the words of a lab
 * notebook come back: a numbered stop or issue, an issue reference, a commit hash in prose.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Top-level entries scanned (directories recursively). */
const SCANNED = [
  'README.md',
  '.env.example',
  'Dockerfile',
  'fly.toml',
  'package.json',
  'biome.json',
  '.ci',
  'bin',
  'bench',
  'docs',
  'drizzle',
  'fixtures',
  'scripts',
  'src',
  'test',
];
const TEXT = new Set([
  '.md',
  '.ts',
  '.tsx',
  '.js',
  '.mjs',
  '.cjs',
  '.css',
  '.json',
  '.sql',
  '.svg',
  '.lua',
  '.toml',
  '',
]);

interface Finding {
  rule: string;
  line: number;
  text: string;
}

const HEX = '[0-9a-f]';
/** A hash cited in prose: a short (7–12) or full (40) hex word standing alone, digits and letters mixed. */
const HASH_WORD = new RegExp(`(?<=^|[\\s(\\[\`])(?:${HEX}{7,12}|${HEX}{40})(?=$|[\\s)\\]\`,.;:])`, 'gm');

const RULES: { rule: string; pattern: RegExp; keep?: (match: string) => boolean }[] = [
  { rule: 'numbered stop', pattern: /\bstops? \d+/gi },
  { rule: 'issue number', pattern: /\b(?:issues?|tickets?) #?\d+/gi },
  {
    rule: 'issue reference',
    pattern: /(?:[([]|\b(?:see|fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|pr|pull request|part of)\s+)#\d+\b/gi,
  },
  // Hex test vectors and secrets sit inside strings or identifiers (quotes, `-`, `_`, `=` around
  // them) and are longer than an abbreviated hash; a word of only digits or only letters is a number or a word.
  { rule: 'commit hash', pattern: HASH_WORD, keep: (m) => /\d/.test(m) && /[a-f]/.test(m) },
];

function historyFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const { rule, pattern, keep } of RULES) {
    for (const match of text.matchAll(pattern)) {
      if (keep && !keep(match[0])) continue;
      const line = text.slice(0, match.index).split('\n').length;
      findings.push({ rule, line, text: match[0] });
    }
  }
  return findings;
}

function files(path: string): string[] {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return TEXT.has(extname(path)) ? [path] : [];
  return readdirSync(path).flatMap((name) => (name === 'node_modules' ? [] : files(join(path, name))));
}

// Built at run time so that this file's own source holds none of the words it looks for.
const said = (...parts: (string | number)[]) => parts.join(' ');

describe('no run history in the tree', () => {
  it('finds numbered stops and issues, issue references and hashes cited in prose', () => {
    const hits = (t: string) => historyFindings(t).map((f) => f.rule);
    expect(hits(`${said('Stop', 26)}: the queue`)).toEqual(['numbered stop']);
    expect(hits(`before ${said('stops', 19)} to 24`)).toEqual(['numbered stop']);
    expect(hits(`the push path (${said('issue', 13)})`)).toEqual(['issue number']);
    expect(hits(`${said('Issue', '#14')} part 1`)).toEqual(['issue number']);
    expect(hits(`the fix (${'#'}12)`)).toEqual(['issue reference']);
    expect(hits(`${said('see', `${'#'}7`)} for why`)).toEqual(['issue reference']);
    expect(hits(`main at ${'8409f8e'}, 15:23 UTC`)).toEqual(['commit hash']);
    expect(hits(`(${'d581264'})`)).toEqual(['commit hash']);
    expect(hits(`at \`${'3f37b49'}\``)).toEqual(['commit hash']);
    expect(hits(`merged ${'0123456789abcdef0123456789abcdef01234567'}.`)).toEqual(['commit hash']);
  });

  it('leaves alone what only looks like it: ids, colours, test vectors, secrets, plain words and numbers', () => {
    for (const text of [
      'Press Ctrl+C to stop.',
      'the loop stops at 5 s',
      '    feed #1 reception.closed: [...]',
      "dedupeKey: 'live#0'",
      'background: #222938;',
      "const ADMIN_TOKEN = 'admin-token-0123456789abcdef';",
      'Admin token     admin-3f0c52a9d1e84b7c9a6e2d1f0b7c4e58',
      'Webhooks      Basic wms-demo / 94255f3152b7f9c5e1b055ea',
      '"id": "3f0c52a9-d1e8-4b7c-9a6e-2d1f0b7c4e58"',
      'sha256=9f86d081884c7d659a2feaa0c55ad015',
      'a decade, 1234567 rows, deadbeef and facade',
      'issues are counted per connection',
    ]) {
      expect(historyFindings(text), text).toEqual([]);
    }
  });

  it('finds a short hash wherever it stands in a sentence', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{7,12}$/).filter((h) => /\d/.test(h) && /[a-f]/.test(h)),
        fc.constantFrom(' ', '(', '`'),
        fc.constantFrom(' ', ')', '`', ',', '.', ';', ':', ''),
        (hash, before, after) => {
          const found = historyFindings(`measured at${before}${hash}${after} today`);
          expect(found.map((f) => f.text)).toEqual([hash]);
        },
      ),
    );
  });

  it('docs, README, sources, tests, benches and scripts carry none of it', () => {
    const report: string[] = [];
    for (const entry of SCANNED) {
      for (const file of files(join(ROOT, entry))) {
        for (const f of historyFindings(readFileSync(file, 'utf8'))) {
          report.push(`${relative(ROOT, file)}:${f.line}: ${f.rule}: ${f.text}`);
        }
      }
    }
    expect(report).toEqual([]);
  });
});
