// npm run bench:webhook-read [-- --rounds 15 --iterations 20000]
//
// The receiver's reading of one webhook, in process, on the realistic fixtures: JSON.parse alone
// (the floor), a strict zod check (JSON.parse + safeParse of the spec's schema + dedupe key: the
// baseline), and the tolerant reading the receiver uses (readPayload: one JSON.parse, the
// hand-written reader, the dedupe key). Rounds are interleaved so machine load
// hits every variant alike; prints the median µs per delivery and the ratio to the zod path, and
// writes bench/results/webhook-read.json. What it leaves out: HTTP, auth and the durable write
// (bench:ingest measures those end to end).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readPayload } from '../src/inbound/reading.js';
import { hashCanonical } from '../src/lib/crypto.js';
import { isJsonContentType } from '../src/lib/http.js';
import { mayNeedPayloadCheck } from '../src/lib/nul.js';
import {
  closeReceptionPayloadSchema,
  closeShippingOrderPayloadSchema,
  stockRegularizationPayloadSchema,
  type WebhookKind,
} from '../src/wms/webhooks.js';
import { quick } from './lib/quick.js';
import { printTable, type Row, writeResults } from './lib/report.js';

const QUICK = quick({ rounds: '5', iterations: '5000' });

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '15' }, iterations: { type: 'string', default: '20000' } },
});
const ROUNDS = Number(values.rounds);
const N = Number(values.iterations);

const fixture = (kind: WebhookKind) =>
  readFileSync(new URL(`../fixtures/webhooks/${kind}.json`, import.meta.url), 'utf8');
const cases = [
  { kind: 'reception-close' as const, body: fixture('reception-close'), schema: closeReceptionPayloadSchema },
  {
    kind: 'shipping-order-close' as const,
    body: fixture('shipping-order-close'),
    schema: closeShippingOrderPayloadSchema,
  },
  {
    kind: 'stock-regularization' as const,
    body: fixture('stock-regularization'),
    schema: stockRegularizationPayloadSchema,
  },
];

/** A strict reading with the spec's zod schema, dedupe key included: the baseline. */
function strictCheck(kind: WebhookKind, body: string, schema: (typeof cases)[number]['schema']): string | undefined {
  if (!isJsonContentType('application/json')) return undefined;
  const parsed = schema.safeParse(JSON.parse(body));
  if (!parsed.success || mayNeedPayloadCheck(body)) return undefined;
  const p = parsed.data as Record<string, unknown>;
  if ('closingDocumentCode' in p) return `${kind}:${p.closingDocumentCode as string}`;
  return `${kind}:${hashCanonical({ productExternalCode: p.productExternalCode, lotCode: p.lotCode || null, quantity: p.quantity, movementTime: new Date(p.movementTime as string).toISOString(), warehouse: p.warehouse || null })}`;
}

let sink = 0;
function time(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) if (fn()) sink++;
  return Number(process.hrtime.bigint() - start) / 1000 / N;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: Row[] = [];
for (const c of cases) {
  const variants = {
    'JSON.parse only': () => JSON.parse(c.body),
    'strict zod (baseline)': () => strictCheck(c.kind, c.body, c.schema),
    'tolerant reading (ours)': () => {
      const r = readPayload(c.kind, c.body);
      return r.json ? r.dedupeKey : undefined;
    },
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) for (const [name, fn] of Object.entries(variants)) samples[name]!.push(time(fn));
  const zod = median(samples['strict zod (baseline)']!);
  for (const [name, xs] of Object.entries(samples))
    rows.push({ kind: c.kind, variant: name, 'µs/delivery': median(xs), 'ratio to zod': median(xs) / zod });
}
const title = `Reading one delivery (${ROUNDS} rounds × ${N}, median)`;
printTable(title, rows);
// Ours: the tolerant reading; its baseline: the strict zod check, measured alongside.
const chart = cases.map((c) => {
  const of = (variant: string) =>
    rows.find((r) => r.kind === c.kind && r.variant === variant)!['µs/delivery'] as number;
  return { label: c.kind, ours: of('tolerant reading (ours)'), baseline: of('strict zod (baseline)'), unit: 'µs' };
});
process.stdout.write(
  `results: ${writeResults('webhook-read', { rounds: ROUNDS, iterations: N, rows, quick: QUICK, tables: [{ title, rows }], chart })} (${sink > 0 ? 'ok' : ''})\n`,
);
