import { z } from 'zod';
import type { InboundEvent, InboxFilter, Store } from '../store/index.js';
import { WEBHOOK_KINDS } from '../wms/webhooks.js';

/**
 * One line of a capture (`wms-sync events export`, read back by `wms-sync replay FILE.jsonl`): an
 * inbound event as the WMS sent it. The body is the raw text the receiver stored, never an
 * operator's correction; nothing of the request's credentials is stored, so none can leak here.
 */
export const capturedEventSchema = z.object({
  connection: z.string().min(1),
  kind: z.enum(WEBHOOK_KINDS),
  receivedAt: z.iso.datetime({ offset: true }),
  body: z.string(),
  /** The event's id where it was captured: for the reader, not used by a replay. */
  id: z.number().int().positive().optional(),
});
export type CapturedEvent = z.infer<typeof capturedEventSchema>;

export function toCaptured(event: InboundEvent): CapturedEvent {
  return {
    connection: event.connection,
    kind: event.kind as CapturedEvent['kind'],
    receivedAt: event.receivedAt.toISOString(),
    body: event.payload,
    id: event.id,
  };
}

/** Reads one line of a capture; an error names the line and what is wrong with it. */
export function parseCaptured(line: string, lineNumber: number): CapturedEvent {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new Error(`line ${lineNumber}: not JSON`);
  }
  const parsed = capturedEventSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`line ${lineNumber}: ${issue.path.join('.') || 'the line'}: ${issue.message}`);
  }
  return parsed.data;
}

/** At most this many events per export, so an id list in memory stays small (8 bytes each). */
export const EXPORT_MAX = 1_000_000;

/**
 * Writes the matching events oldest first, one JSON line each, and says how many it wrote and how
 * many it skipped because retention had emptied their body. One row is read at a time.
 */
export async function exportEvents(
  store: Store,
  filter: InboxFilter,
  write: (line: string) => Promise<void> | void,
): Promise<{ written: number; pruned: number }> {
  const ids = await store.inbox.ids(filter, EXPORT_MAX);
  let written = 0;
  let pruned = 0;
  for (const id of ids) {
    const event = await store.inbox.get(id);
    if (!event) continue;
    if (event.payloadPrunedAt) {
      pruned += 1;
      continue;
    }
    await write(`${JSON.stringify(toCaptured(event))}\n`);
    written += 1;
  }
  return { written, pruned };
}
