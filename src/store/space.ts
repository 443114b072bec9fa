import { statfsSync, statSync } from 'node:fs';
import { type Clock, systemClock } from '../lib/clock.js';
import { isStorageFull } from './unavailable.js';

/**
 * How long a write the store refused for a full disk keeps the storage short, unless space is
 * measured coming back sooner: the first writes after it find out again whether the disk is full.
 */
export const FULL_HOLD_MS = 5_000;

/** The storage's state, read by the receiver, /readyz and /metrics. */
export interface StorageSpace {
  /**
   * Why new webhooks are refused now (free space under the reserve, or the store reported a full
   * disk), or undefined when there is room. Processing and checkpoints keep the reserve to finish
   * what was acknowledged.
   */
  shortage(): string | undefined;
  /** Free bytes of the data directory's filesystem, for the service's user; undefined when unknown. */
  freeBytes(): number | undefined;
  /** The reserve (`DATA_MIN_FREE_MB`) in bytes. */
  readonly minFreeBytes: number;
  /** The size of the SQLite WAL file; undefined without one (Postgres). */
  walBytes(): number | undefined;
  /** Tells the state about a store failure: a full disk makes the storage short at once. */
  noteFailure(err: unknown): void;
}

export interface SpaceOptions {
  /** The data directory whose filesystem is measured; undefined when the data lives elsewhere. */
  dir?: string;
  /** The SQLite file, whose `-wal` beside it is measured. */
  sqliteFile?: string;
  minFreeBytes: number;
  clock?: Clock;
  /** The longest a measure of free space is reused: `shortage()` sits on the receiver's path. */
  cacheMs?: number;
  /** The free bytes of a directory's filesystem; tests pass one of their own. */
  statFree?: (dir: string) => number;
}

function freeOf(dir: string): number {
  const fs = statfsSync(dir);
  return Number(fs.bavail) * Number(fs.bsize);
}

/**
 * The storage state from the free space of the data directory (measured at most every `cacheMs`)
 * and the full-disk failures the store reported. It needs no timer: it is measured when asked, and
 * comes back to "room" by itself as soon as space is freed.
 */
export function storageSpace(options: SpaceOptions): StorageSpace {
  const clock = options.clock ?? systemClock;
  const cacheMs = options.cacheMs ?? 1_000;
  const statFree = options.statFree ?? freeOf;
  let measured: { at: number; free: number | undefined } | undefined;
  let fullAt: { at: number; free: number | undefined } | undefined;

  const freeBytes = (): number | undefined => {
    if (options.dir === undefined) return undefined;
    const now = clock.nowMs();
    if (!measured || now - measured.at >= cacheMs) {
      let free: number | undefined;
      try {
        free = statFree(options.dir);
      } catch {
        free = undefined;
      }
      measured = { at: now, free };
    }
    return measured.free;
  };

  return {
    minFreeBytes: options.minFreeBytes,
    freeBytes,
    shortage() {
      const free = freeBytes();
      if (free !== undefined && free < options.minFreeBytes)
        return `the data directory has ${mb(free)} free, under the reserve of ${mb(options.minFreeBytes)} (DATA_MIN_FREE_MB)`;
      if (fullAt) {
        // Measured space above the reserve and more than when the disk filled: space came back.
        const freed = free !== undefined && (fullAt.free === undefined || free > fullAt.free);
        if (freed || clock.nowMs() - fullAt.at >= FULL_HOLD_MS) fullAt = undefined;
        else return 'the store refused a write: its disk is full';
      }
      return undefined;
    },
    walBytes() {
      if (options.sqliteFile === undefined) return undefined;
      try {
        return statSync(`${options.sqliteFile}-wal`).size;
      } catch {
        return 0;
      }
    },
    noteFailure(err) {
      if (!isStorageFull(err)) return;
      measured = undefined;
      fullAt = { at: clock.nowMs(), free: freeBytes() };
    },
  };
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
