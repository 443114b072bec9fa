import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { z } from 'zod';
import { type IntakeKind, KINDS } from './entities.js';

export class FileFormatError extends Error {}

/** One item read from a file, with where it came from for messages (`row 4`, `item 2`). */
export interface FileItem {
  source: string;
  value: unknown;
}

/**
 * Reads a bulk-load file: JSON (an array of DTOs, or `{"items": [...]}`) or CSV. CSV headers are
 * field paths (`description`, `barcodes.0.code`, `lots.1.expirationDate`); values are typed after
 * the spec schema (booleans, numbers) and empty cells are left out. For documents each CSV row is
 * one line: columns `lines.<field>` belong to the line, the others to the document, and rows with
 * the same externalCode make one document.
 */
export async function readItems(kind: IntakeKind, file: string): Promise<FileItem[]> {
  const text = await readFile(file, 'utf8');
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return fromJson(text);
  if (ext === '.csv') return fromCsv(kind, text);
  throw new FileFormatError(`${file}: expected a .json or .csv file`);
}

function fromJson(text: string): FileItem[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new FileFormatError(`not valid JSON: ${(err as Error).message}`);
  }
  const items = Array.isArray(value) ? value : (value as { items?: unknown } | null)?.items;
  if (!Array.isArray(items))
    throw new FileFormatError('expected a JSON array of items, or an object with an "items" array');
  return items.map((v, i) => ({ source: `item ${i}`, value: v }));
}

function fromCsv(kind: IntakeKind, text: string): FileItem[] {
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Record<string, string>[];
  } catch (err) {
    throw new FileFormatError(`not valid CSV: ${(err as Error).message}`);
  }
  const schema = KINDS[kind].schema;
  if (kind !== 'documents')
    return rows.map((row, i) => ({ source: `row ${i + 2}`, value: build(schema, Object.entries(row)) }));

  const documents = new Map<string, { source: string; value: Record<string, unknown> }>();
  const order: FileItem[] = [];
  rows.forEach((row, i) => {
    const source = `row ${i + 2}`;
    const entries = Object.entries(row);
    const head = build(
      schema,
      entries.filter(([k]) => !k.startsWith('lines.')),
    );
    const lineEntries = entries
      .filter(([k]) => k.startsWith('lines.'))
      .map(([k, v]) => [`lines.0.${k.slice(6)}`, v] as [string, string]);
    const line = (build(schema, lineEntries).lines as unknown[] | undefined)?.[0];
    const code = String(head.externalCode ?? `(${source})`);
    let doc = documents.get(code);
    if (!doc) {
      doc = { source, value: { ...head, lines: [] } };
      documents.set(code, doc);
      order.push(doc);
    }
    if (line) (doc.value.lines as unknown[]).push(line);
  });
  return order;
}

/** Sets each `a.0.b` path on a fresh object, with the value typed as the schema says at that path. */
function build(schema: z.ZodType, entries: [string, string][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, raw] of entries) {
    if (raw === '') continue;
    const keys = path.split('.');
    let target: Record<string, unknown> | unknown[] = out;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const slot = /^\d+$/.test(key) ? Number(key) : key;
      const container = target as Record<string | number, unknown>;
      if (last) container[slot] = typed(leafOf(schema, keys), raw);
      else {
        container[slot] ??= /^\d+$/.test(keys[i + 1]!) ? [] : {};
        target = container[slot] as Record<string, unknown>;
      }
    });
  }
  return out;
}

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(s: z.ZodType | undefined): z.ZodType | undefined {
  let current = s;
  while (current && (defOf(current).type === 'optional' || defOf(current).type === 'nullable'))
    current = defOf(current).innerType;
  return current;
}

function leafOf(schema: z.ZodType, keys: string[]): string {
  let current: z.ZodType | undefined = schema;
  for (const key of keys) {
    current = unwrap(current);
    if (!current) return 'unknown';
    const def = defOf(current);
    current = def.type === 'array' ? def.element : def.type === 'object' ? def.shape?.[key] : undefined;
    if (def.type === 'array' && !/^\d+$/.test(key)) return 'unknown';
  }
  return current ? defOf(unwrap(current)!).type : 'unknown';
}

const TRUE = new Set(['true', '1', 'yes', 'y']);
const FALSE = new Set(['false', '0', 'no', 'n']);

/** The cell as the schema's type, or the text unchanged (the schema then says what is wrong). */
function typed(type: string, raw: string): unknown {
  if (type === 'boolean') {
    const word = raw.toLowerCase();
    if (TRUE.has(word)) return true;
    if (FALSE.has(word)) return false;
  }
  if (type === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}
