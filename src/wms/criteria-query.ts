import {
  type Criteria,
  type CriteriaFields,
  FILTER_OPERATORS,
  type FilterKind,
  type FilterOperator,
  LIST_OPERATORS,
  type Pageable,
} from './criteria.js';
import { type DeliveryPointCategory, deliveryPointCategorySchema, entityTypeSchema } from './delivery-point.js';
import { documentStatusSchema } from './document.js';
import { barcodeTypeSchema } from './product.js';
import { isoDateSchema, isoDateTimeSchema } from './scalars.js';

/*
 * JHipster criteria and Spring Pageable in a query string, the way Spring's data binder reads them:
 *   sku.contains=AB   active.equals=true   id.in=1,2   description.specified=true   page=0&size=20
 *   sort=sku,desc (repeatable)   categories.equals.id=3   categories.in[0].description=Cold
 * A list given as one parameter is split on commas and each element trimmed (Spring's
 * StringToCollectionConverter); given as repeated parameters, each value is taken whole.
 */

export class CriteriaEncodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CriteriaEncodingError';
  }
}

export interface QueryIssue {
  param: string;
  message: string;
}

export type DecodedQuery<F extends CriteriaFields> =
  | { ok: true; criteria: Criteria<F>; pageable: Pageable }
  | { ok: false; issues: QueryIssue[] };

export interface SortOrder {
  property: string;
  direction: 'asc' | 'desc';
}

const PAGEABLE_PARAMS = new Set(['page', 'size', 'sort']);
const CATEGORY_MEMBERS = new Set(['id', 'description', 'active']);

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

const TRUE_WORDS = new Set(['true', 'on', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'off', 'no', '0']);

function parseBoolean(text: string): Parsed {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return { ok: true, value: true };
  if (FALSE_WORDS.has(word)) return { ok: true, value: false };
  return { ok: false, message: `expected true or false, got "${text}"` };
}

function parseInteger(text: string, min: number, max: number): Parsed {
  if (!/^[-+]?\d+$/.test(text)) return { ok: false, message: `expected an integer, got "${text}"` };
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max)
    return { ok: false, message: `integer out of range: ${text}` };
  return { ok: true, value };
}

function viaSchema(schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }, what: string) {
  return (text: string): Parsed => {
    const parsed = schema.safeParse(text);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, message: `expected ${what}, got "${text}"` };
  };
}

const INT32 = [-(2 ** 31), 2 ** 31 - 1] as const;

/** How each filter type's scalar values are read from text (category values are objects, below). */
const VALUE_PARSERS: Record<Exclude<FilterKind, 'deliveryPointCategory'>, (text: string) => Parsed> = {
  string: (text) => ({ ok: true, value: text }),
  boolean: parseBoolean,
  long: (text) => parseInteger(text, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  integer: (text) => parseInteger(text, INT32[0], INT32[1]),
  localDate: viaSchema(isoDateSchema, 'a date YYYY-MM-DD'),
  instant: viaSchema(isoDateTimeSchema, 'an ISO 8601 date-time with offset'),
  typeOfBarcode: viaSchema(barcodeTypeSchema, 'a barcode type'),
  receptionNoteStatus: viaSchema(documentStatusSchema, 'a document status'),
  entityType: viaSchema(entityTypeSchema, 'SUPPLIER or CLIENT'),
};

/** A list element that survives being joined with commas and split and trimmed again. */
function joinable(text: string): boolean {
  return text.length > 0 && !text.includes(',') && text.trim() === text;
}

function appendList(out: URLSearchParams, key: string, texts: string[]): void {
  if (texts.every(joinable)) {
    out.append(key, texts.join(','));
    return;
  }
  if (texts.length === 1) {
    throw new CriteriaEncodingError(
      `${key}: a single value "${texts[0]}" cannot be sent as a list (commas, blanks or empty)`,
    );
  }
  for (const text of texts) out.append(key, text);
}

function appendCategory(out: URLSearchParams, prefix: string, category: DeliveryPointCategory): void {
  if (category.id !== undefined && category.id !== null) out.append(`${prefix}.id`, String(category.id));
  out.append(`${prefix}.description`, category.description);
  if (category.active !== undefined && category.active !== null)
    out.append(`${prefix}.active`, String(category.active));
}

/** Criteria and pageable as query parameters (AND-combined by the server). */
export function encodeCriteriaQuery<F extends CriteriaFields>(
  fields: F,
  criteria: Criteria<F>,
  pageable: Pageable = {},
): URLSearchParams {
  const out = new URLSearchParams();
  for (const [field, filter] of Object.entries(criteria as Record<string, Record<string, unknown> | undefined>)) {
    if (filter === undefined) continue;
    const kind = fields[field];
    if (!kind) throw new CriteriaEncodingError(`unknown criteria field "${field}"`);
    for (const [op, value] of Object.entries(filter)) {
      if (value === undefined) continue;
      if (!FILTER_OPERATORS[kind].includes(op as FilterOperator)) {
        throw new CriteriaEncodingError(`${field}: operator "${op}" is not offered by this filter type`);
      }
      const key = `${field}.${op}`;
      if (kind === 'deliveryPointCategory' && op !== 'specified') {
        if (LIST_OPERATORS.has(op as FilterOperator)) {
          const list = value as DeliveryPointCategory[];
          if (list.length === 0) out.append(key, '');
          for (const [i, category] of list.entries()) appendCategory(out, `${key}[${i}]`, category);
        } else appendCategory(out, key, value as DeliveryPointCategory);
      } else if (LIST_OPERATORS.has(op as FilterOperator)) {
        appendList(out, key, (value as unknown[]).map(String));
      } else out.append(key, String(value));
    }
  }
  if (pageable.page !== undefined) out.append('page', String(pageable.page));
  if (pageable.size !== undefined) out.append('size', String(pageable.size));
  for (const entry of pageable.sort ?? []) out.append('sort', entry);
  return out;
}

/** `sku,desc` → [{sku, desc}]; `a,b,desc` → both descending (Spring); undefined when malformed. */
export function parseSort(entry: string): SortOrder[] | undefined {
  const parts = entry.split(',').map((p) => p.trim());
  const last = parts[parts.length - 1]!.toLowerCase();
  const direction = last === 'asc' || last === 'desc' ? last : undefined;
  const properties = (direction ? parts.slice(0, -1) : parts).filter((p) => p.length > 0);
  if (properties.length === 0 || !properties.every((p) => /^[A-Za-z_][A-Za-z0-9_.]*$/.test(p))) return undefined;
  return properties.map((property) => ({ property, direction: direction ?? 'asc' }));
}

function toSearchParams(input: URLSearchParams | string | Iterable<[string, string]>): URLSearchParams {
  if (input instanceof URLSearchParams) return input;
  return new URLSearchParams(typeof input === 'string' ? input.replace(/^\?/, '') : [...input]);
}

const KEY = /^([A-Za-z][A-Za-z0-9_]*)\.([A-Za-z]+)(.*)$/;
const CATEGORY_SUFFIX = /^(?:\[(\d{1,4})\])?\.([A-Za-z]+)$/;

/** Reads a list request's query string; every problem is reported, none is silently ignored. */
export function decodeCriteriaQuery<F extends CriteriaFields>(
  fields: F,
  input: URLSearchParams | string | Iterable<[string, string]>,
): DecodedQuery<F> {
  const params = toSearchParams(input);
  const issues: QueryIssue[] = [];
  const criteria: Record<string, Record<string, unknown>> = {};
  const pageable: Pageable = {};
  const categories = new Map<string, Map<number, Record<string, string>>>();

  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const issue = (message: string) => issues.push({ param: key, message });
    if (PAGEABLE_PARAMS.has(key)) {
      readPageable(key, values, pageable, issue);
      continue;
    }
    const match = KEY.exec(key);
    const kind = match ? fields[match[1]!] : undefined;
    if (!match || !kind) {
      issue(`unknown criteria field "${match ? match[1] : key}"`);
      continue;
    }
    const [, field, op, suffix] = match as unknown as [string, string, string, string];
    if (!FILTER_OPERATORS[kind].includes(op as FilterOperator)) {
      issue(`operator "${op}" is not offered by the filter of "${field}"`);
      continue;
    }
    const filter = (criteria[field] ??= {});
    const isList = LIST_OPERATORS.has(op as FilterOperator);
    if (kind === 'deliveryPointCategory' && op !== 'specified') {
      if (suffix === '' && isList && values.length === 1 && values[0] === '') {
        filter[op] = [];
        continue;
      }
      const m = CATEGORY_SUFFIX.exec(suffix);
      if (!m || (m[1] !== undefined) !== isList || !CATEGORY_MEMBERS.has(m[2]!) || values.length !== 1) {
        issue(`expected ${field}.${op}${isList ? '[i]' : ''}.id|description|active, given once`);
        continue;
      }
      const slots = categories.get(`${field}.${op}`) ?? new Map<number, Record<string, string>>();
      categories.set(`${field}.${op}`, slots);
      const slot = slots.get(Number(m[1] ?? 0)) ?? {};
      slots.set(Number(m[1] ?? 0), slot);
      slot[m[2]!] = values[0]!;
      continue;
    }
    if (suffix !== '') {
      issue(`unknown criteria parameter "${key}"`);
      continue;
    }
    const parse =
      op === 'specified' ? parseBoolean : VALUE_PARSERS[kind as Exclude<FilterKind, 'deliveryPointCategory'>];
    if (isList) {
      const texts = values.length === 1 ? (values[0] === '' ? [] : values[0]!.split(',').map((t) => t.trim())) : values;
      const parsed = texts.map(parse);
      const bad = parsed.find((p) => !p.ok);
      if (bad && !bad.ok) issue(bad.message);
      else filter[op] = parsed.map((p) => (p as { value: unknown }).value);
    } else if (values.length !== 1) {
      issue('given more than once');
    } else {
      const parsed = parse(values[0]!);
      if (parsed.ok) filter[op] = parsed.value;
      else issue(parsed.message);
    }
  }

  for (const [key, slots] of categories) {
    const [field, op] = key.split('.') as [string, string];
    const objects: DeliveryPointCategory[] = [];
    for (const index of [...slots.keys()].sort((a, b) => a - b)) {
      const raw = slots.get(index)!;
      const candidate = {
        ...(raw.id !== undefined ? { id: parseInteger(raw.id, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) } : {}),
        ...(raw.active !== undefined ? { active: parseBoolean(raw.active) } : {}),
      } as Record<string, Parsed>;
      const failed = Object.values(candidate).find((p) => !p.ok);
      const object = {
        ...Object.fromEntries(Object.entries(candidate).map(([k, p]) => [k, (p as { value: unknown }).value])),
        ...(raw.description !== undefined ? { description: raw.description } : {}),
      };
      const checked = deliveryPointCategorySchema.safeParse(object);
      if (failed && !failed.ok) issues.push({ param: key, message: failed.message });
      else if (!checked.success) issues.push({ param: key, message: 'a category needs a description' });
      else objects.push(checked.data);
    }
    const filter = (criteria[field] ??= {});
    filter[op] = LIST_OPERATORS.has(op as FilterOperator) ? objects : objects[0];
  }

  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, criteria: criteria as Criteria<F>, pageable };
}

function readPageable(key: string, values: string[], pageable: Pageable, issue: (m: string) => void): void {
  if (key === 'sort') {
    const bad = values.find((v) => parseSort(v) === undefined);
    if (bad !== undefined) issue(`expected property[,asc|desc], got "${bad}"`);
    else pageable.sort = values;
    return;
  }
  if (values.length !== 1) {
    issue('given more than once');
    return;
  }
  const parsed = parseInteger(values[0]!, key === 'page' ? 0 : 1, INT32[1]);
  if (!parsed.ok) issue(`${key} must be an integer of at least ${key === 'page' ? 0 : 1}`);
  else if (key === 'page') pageable.page = parsed.value as number;
  else pageable.size = parsed.value as number;
}
