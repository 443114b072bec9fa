import type { Writable } from 'node:stream';
import type { EventDetail, PayloadView } from '../inbound/event-views.js';

const pretty = (p: PayloadView) => (p.parsed === null ? p.raw : JSON.stringify(p.parsed, null, 2));
const value = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

/** `wms-sync events show ID`: metadata, original, correction, edit history, attempts, feed entries. */
export function printDetail(d: EventDetail, out: Writable): void {
  out.write(`${JSON.stringify(d.event, null, 2)}\n`);
  const pruned = d.event.payloadPrunedAt;
  out.write(
    `--- raw body as received ---\n${pruned ? `(pruned at ${pruned}: older than the retention setting)` : d.payload.raw}\n`,
  );
  if (d.correction) out.write(`--- correction (what processing uses) ---\n${pretty(d.correction)}\n`);
  if (d.edits.length > 0) {
    out.write('--- edits ---\n');
    for (const e of d.edits) {
      out.write(`#${e.id} ${e.at} by ${e.actor}\n`);
      for (const c of e.changes) out.write(`    ${c.path}: ${value(c.before)} → ${value(c.after)}\n`);
    }
  }
  if (d.attempts.length > 0) {
    out.write('--- processing attempts ---\n');
    for (const a of d.attempts) out.write(`${a.at}  ${a.outcome}${a.error ? `  ${a.error}` : ''}\n`);
  }
  if (d.feedEntries.length > 0) {
    out.write('--- feed entries ---\n');
    for (const c of d.feedEntries) out.write(`#${c.id} ${c.type} ${c.createdAt}\n`);
  }
}
