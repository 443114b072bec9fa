import { createHash } from 'node:crypto';
import type { WebhookKind } from '../../wms/index.js';
import type { EmulatorContext } from '../context.js';

/**
 * A tenant's webhook style. `canonical` (the default) writes every payload in one form: what
 * src/wms/webhooks.ts describes, every member present. `varied` writes each webhook in forms
 * the spec allows just as well and a real WMS may use (docs/emulator.md, "Webhook style"), chosen
 * per webhook from the seed and the payload, so the same seed gives the same bytes again. A
 * variant never changes what the payload says: the same dates, instants, quantities and codes.
 */
export type WebhookStyleName = 'canonical' | 'varied';
export interface WebhookStyle {
  style: WebhookStyleName;
  seed: number;
}

export const DEFAULT_WEBHOOK_STYLE: WebhookStyle = { style: 'canonical', seed: 0 };

export function getWebhookStyle(ctx: EmulatorContext, tenantId: string): WebhookStyle {
  const row = ctx.sql('SELECT style, seed FROM webhook_styles WHERE tenant_id = ?').get(tenantId) as
    | WebhookStyle
    | undefined;
  return row ?? DEFAULT_WEBHOOK_STYLE;
}

export function setWebhookStyle(
  ctx: EmulatorContext,
  tenantId: string,
  input: { style: WebhookStyleName; seed?: number | undefined },
): WebhookStyle {
  const style = { style: input.style, seed: input.seed ?? 0 };
  ctx
    .sql(
      'INSERT INTO webhook_styles (tenant_id, style, seed, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (tenant_id) DO UPDATE SET style = excluded.style, seed = excluded.seed, updated_at = excluded.updated_at',
    )
    .run(tenantId, style.style, style.seed, ctx.clock.nowMs());
  return style;
}

/**
 * mulberry32: a small seeded generator, enough to pick variants reproducibly (the emulator may not
 * depend on test-only packages, and no runtime one offers a seeded generator worth a dependency).
 */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Obj = Record<string, unknown>;
const OFFSETS = [60, -300, 330, 0, 120, -180, 545];

class Variation {
  constructor(private readonly rng: () => number) {}
  chance(p = 0.5): boolean {
    return this.rng() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rng() * items.length)]!;
  }

  /** The same instant at another offset, written with a colon, without one, or in hours only; seconds left out when they are zero, the fraction in microseconds. */
  instant(iso: string): string {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return iso;
    const offset = this.pick(OFFSETS);
    const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
    const [date, time] = local.split('T') as [string, string];
    const secondsZero = time.endsWith(':00.000');
    const body =
      secondsZero && this.chance()
        ? time.slice(0, 5)
        : time.endsWith('.000') && this.chance()
          ? time.slice(0, 8)
          : this.chance()
            ? `${time}${this.pick(['', '000'])}`
            : time;
    const sign = offset < 0 ? '-' : '+';
    const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
    const mm = String(Math.abs(offset) % 60).padStart(2, '0');
    const zone =
      offset === 0 && this.chance()
        ? 'Z'
        : this.pick(
            mm === '00'
              ? [`${sign}${hh}:${mm}`, `${sign}${hh}${mm}`, `${sign}${hh}`]
              : [`${sign}${hh}:${mm}`, `${sign}${hh}${mm}`],
          );
    return `${date}T${body}${zone}`;
  }

  /** A date written as a date-time of that calendar day (the date part is the date). */
  date(day: string): string {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || this.chance(0.3)) return day;
    return `${day}T${this.pick(['00:00:00Z', '00:00:00.000+01:00', '10:15+0100', '23:30:00-05:00', '12:00:00.123456+02', '08:00:00+05:30'])}`;
  }

  /** Members the spec does not list, as a later WMS version might add. */
  extras(o: Obj, level: string): void {
    if (!this.chance(0.6)) return;
    const extras: Obj[] = [
      { [`${level}Version`]: this.pick([2, '2.3.1']) },
      { [`${level}Meta`]: { source: 'wms', tags: ['a', 'b'], nested: { deep: null } } },
      { [`x-${level}`]: this.pick([true, 0, 'note']) },
    ];
    Object.assign(o, this.pick(extras));
  }

  /** A member without value: null (canonical), left out, or "" when it is text. */
  empty(o: Obj, key: string, text: boolean): void {
    if (o[key] !== null) return;
    const choice = this.rng();
    if (choice < 0.4) delete o[key];
    else if (text && choice < 0.7) o[key] = '';
  }

  emptyArray(o: Obj, key: string): void {
    const v = o[key];
    if (v !== null && !(Array.isArray(v) && v.length === 0)) return;
    const choice = this.rng();
    if (choice < 0.4) delete o[key];
    else if (choice < 0.7) o[key] = v === null ? [] : null;
  }
}

const TEXT_MEMBERS = [
  'documentExternalCode',
  'company',
  'observations',
  'originCode',
  'destinationCode',
  'deliveryPointExternalCode',
  'carrier',
  'deliveryPlace',
  'receptionDate',
];

function varyLine(v: Variation, line: Obj): void {
  if (typeof line.expirationDate === 'string') line.expirationDate = v.date(line.expirationDate);
  v.empty(line, 'lotCode', true);
  v.empty(line, 'expirationDate', true);
  v.emptyArray(line, 'serialNumbers');
  v.extras(line, 'line');
}

function varyPayload(v: Variation, kind: WebhookKind, p: Obj): void {
  if (kind === 'stock-regularization') {
    if (typeof p.movementTime === 'string') p.movementTime = v.instant(p.movementTime);
    v.empty(p, 'lotCode', true);
    v.empty(p, 'warehouse', true);
    v.extras(p, 'movement');
    return;
  }
  if (typeof p.receptionDate === 'string') p.receptionDate = v.date(p.receptionDate);
  for (const key of TEXT_MEMBERS) v.empty(p, key, true);
  v.emptyArray(p, 'documentNumber');
  for (const line of Array.isArray(p.lines) ? (p.lines as Obj[]) : []) varyLine(v, line);
  for (const pack of Array.isArray(p.packingList) ? (p.packingList as Obj[]) : []) {
    v.empty(pack, 'packingCode', true);
    v.empty(pack, 'weight', false);
    for (const line of Array.isArray(pack.lines) ? (pack.lines as Obj[]) : []) v.extras(line, 'packed');
    v.extras(pack, 'packing');
  }
  v.emptyArray(p, 'packingList');
  v.extras(p, 'document');
}

/**
 * The bytes to send for a payload in the tenant's style. Beyond the members: integral quantities
 * may be written with a fraction (`12.0`, as a BigDecimal serialiser does), and the document may
 * be pretty-printed.
 */
export function styledBody(style: WebhookStyle, kind: WebhookKind, body: string): string {
  if (style.style === 'canonical') return body;
  const seed = createHash('sha256').update(`${style.seed}\u0000${kind}\u0000${body}`).digest().readUInt32LE(0);
  const v = new Variation(generator(seed));
  const payload = JSON.parse(body) as Obj;
  varyPayload(v, kind, payload);
  let text = v.chance(0.3) ? JSON.stringify(payload, null, 2) : JSON.stringify(payload);
  if (v.chance())
    text = text.replace(
      /("(?:quantity|weight)":\s?)(-?\d+)(?=[,}\s])/g,
      (_m, key: string, n: string) => `${key}${n}.${v.pick(['0', '000'])}`,
    );
  return text;
}
