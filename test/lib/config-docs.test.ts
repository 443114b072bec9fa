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

describe('settings in the docs are the settings of the code', () => {
  const readme = settingRows('README.md');
  const docs = readdirSync(new URL('docs/', ROOT))
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => settingRows(`docs/${f}`));

  it("every setting in README's configuration table exists in the config schema, with the default the table gives", () => {
    expect(readme.length).toBeGreaterThan(20);
    for (const row of readme) {
      expect(schema, `${row.file}:${row.line}`).toHaveProperty(row.name);
      expect(row.documented, `${row.file}:${row.line} ${row.name}`).toBe(defaultOf(row.name));
    }
  });

  it("the rooms' settings tables in docs/ too", () => {
    expect(docs.length).toBeGreaterThan(20);
    for (const row of docs) {
      expect(schema, `${row.file}:${row.line}`).toHaveProperty(row.name);
      expect(row.documented, `${row.file}:${row.line} ${row.name}`).toBe(defaultOf(row.name));
    }
  });

  it('reads rows as the docs write them', () => {
    expect(readme).toContainEqual({
      file: 'README.md',
      line: expect.any(Number),
      name: 'HOST',
      documented: '127.0.0.1',
    });
    expect(readme).toContainEqual({
      file: 'README.md',
      line: expect.any(Number),
      name: 'WMS_BASE_URL',
      documented: undefined,
    });
    expect(readme).toContainEqual({
      file: 'README.md',
      line: expect.any(Number),
      name: 'RECONCILE_CRON',
      documented: '0 * * * *',
    });
  });
});
