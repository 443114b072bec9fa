import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../src/lib/config.js';

const ROOT = new URL('../../', import.meta.url);
const schema = envSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;

interface Setting {
  file: string;
  line: number;
  name: string;
  /** The default the row gives: a value, or undefined for "unset" / an empty cell. */
  documented: string | undefined;
}

/**
 * The rows of the settings tables in a Markdown file: `| `A`, `B` | `1`, unset | meaning |`.
 * The defaults cell holds one entry per name (or one empty cell for all).
 */
function settingRows(file: string): Setting[] {
  const rows: Setting[] = [];
  readFileSync(new URL(file, ROOT), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const cells = text.split('|').map((c) => c.trim());
      if (cells.length < 4 || !/^`[A-Z][A-Z0-9_]+`(, `[A-Z][A-Z0-9_]+`)*$/.test(cells[1]!)) return;
      const names = cells[1]!.split(',').map((n) => n.trim().replaceAll('`', ''));
      const defaults = cells[2] === '' ? names.map(() => '') : cells[2]!.split(/,\s+/).map((d) => d.trim());
      if (defaults.length !== names.length)
        throw new Error(`${file}:${i + 1}: ${names.length} settings but ${defaults.length} defaults`);
      names.forEach((name, k) => {
        const cell = defaults[k]!;
        const documented = cell === '' || cell.startsWith('unset') ? undefined : cell.replaceAll('`', '');
        rows.push({ file, line: i + 1, name, documented });
      });
    });
  return rows;
}

const defaultOf = (name: string): string | undefined => {
  const parsed = schema[name]!.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? String(parsed.data) : undefined;
};

/** `.env.example`'s assignments: `NAME=value` (an empty value is unset). */
function envExample(): Map<string, string | undefined> {
  const text = readFileSync(new URL('.env.example', ROOT), 'utf8');
  return new Map([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2] === '' ? undefined : m[2]]));
}

describe('settings in the docs are the settings of the code', () => {
  const names = Object.keys(schema).sort();
  const table = settingRows('docs/operations.md');
  const elsewhere = [
    ...settingRows('README.md'),
    ...readdirSync(new URL('docs/', ROOT))
      .filter((f) => f.endsWith('.md') && f !== 'operations.md')
      .flatMap((f) => settingRows(`docs/${f}`)),
  ];

  it('the one settings table (docs/operations.md) lists every variable the config schema reads, once', () => {
    expect(table.map((r) => r.name).sort()).toEqual(names);
  });

  it('with the default the schema gives', () => {
    for (const row of table) expect(row.documented, `${row.file}:${row.line} ${row.name}`).toBe(defaultOf(row.name));
  });

  it('no other document keeps a settings table of its own: they link to that one', () => {
    expect(elsewhere).toEqual([]);
    expect(readFileSync(new URL('README.md', ROOT), 'utf8')).toContain('(docs/operations.md#settings)');
  });

  it('.env.example sets every variable of the schema to its default (empty when it has none)', () => {
    const example = envExample();
    expect([...example.keys()].sort()).toEqual(names);
    for (const name of names) expect(example.get(name), name).toBe(defaultOf(name));
  });

  it('reads rows as the docs write them', () => {
    expect(table).toContainEqual({
      file: 'docs/operations.md',
      line: expect.any(Number),
      name: 'HOST',
      documented: '127.0.0.1',
    });
    expect(table).toContainEqual({
      file: 'docs/operations.md',
      line: expect.any(Number),
      name: 'WMS_BASE_URL',
      documented: undefined,
    });
    expect(table).toContainEqual({
      file: 'docs/operations.md',
      line: expect.any(Number),
      name: 'RECONCILE_CRON',
      documented: '0 * * * *',
    });
  });
});
