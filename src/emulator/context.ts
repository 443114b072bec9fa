import type Database from 'better-sqlite3';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { EmulatorEvents } from './events.js';

export interface TenantSettings {
  API_WITH_LOT: boolean;
  API_WITH_EXPIRATION_DATE: boolean;
}

export interface Tenant {
  id: string;
  settings: TenantSettings;
}

/** What every emulator function receives: its database, time source and logger. */
export interface EmulatorContext {
  db: Database.Database;
  /** A cached prepared statement for this SQL text. */
  sql: (text: string) => Database.Statement;
  clock: Clock;
  logger: Logger;
  /** Webhooks queued and finished (see events.ts); `state.events` is the same emitter. */
  events: EmulatorEvents;
}

/** An emulator context scoped to the tenant a request's token belongs to. */
export interface TenantContext extends EmulatorContext {
  tenant: Tenant;
}

export const bool = (value: unknown): boolean => value === 1 || value === true;
export const flag = (value: boolean | null | undefined): number | null =>
  value === undefined || value === null ? null : value ? 1 : 0;
