import type { InboundEvent } from './contract.js';
import { eventFromRow, type RawEventRow } from './event-row.js';

export { EVENT_COLUMNS } from './event-row.js';

/** inbound_events as better-sqlite3 returns it: ids as numbers, times as epoch milliseconds. */
export type EventRow = RawEventRow<number, number>;

const same = (id: number) => id;
const fromMs = (ms: number) => new Date(ms);

export const toEvent = (r: EventRow): InboundEvent => eventFromRow(r, same, fromMs);
