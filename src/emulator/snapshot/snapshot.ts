import { closeSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { EmulatorContext } from '../context.js';
import { ControlError } from '../errors.js';

/** A snapshot's name: a plain file name of our own making, never a path. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const SNAPSHOT_NAME_RULE = 'letters, digits, "_" and "-", starting with a letter or digit, at most 64';

/** Where snapshots live: a folder of their own under the emulator's data directory. */
export function snapshotDir(dataDir: string): string {
  return join(dataDir, 'snapshots');
}

function fileOf(dir: string | undefined, name: string): string {
  if (!dir) {
    throw new ControlError(
      400,
      'snapshots_unavailable',
      'Snapshots need a data directory: start the emulator with --data FILE (or DATA_DIR)',
    );
  }
  // The route's schema checks the name too; this keeps the rule where the path is built.
  if (!SNAPSHOT_NAME.test(name)) throw new ControlError(400, 'invalid_request', `name: ${SNAPSHOT_NAME_RULE}`);
  return join(dir, `${name}.snapshot`);
}

/**
 * The whole state (every tenant, client, the signing key, stock, operations, webhook settings and
 * the webhook log) as a SQLite image in the snapshot folder, readable by the emulator's user only
 * (it holds the signing key and webhook passwords): written to a new `.partial` file created
 * 0600 (never through a link left in its place), then renamed over any older snapshot of that name.
 */
export function writeSnapshot(
  ctx: EmulatorContext,
  dir: string | undefined,
  name: string,
): { name: string; bytes: number } {
  const target = fileOf(dir, name);
  const image = ctx.db.serialize();
  mkdirSync(dir!, { recursive: true, mode: 0o700 });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const fd = openSync(partial, 'wx', 0o600);
  try {
    writeSync(fd, image);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, target); // a reader never sees half a snapshot
  return { name, bytes: image.length };
}

const versions = (ctx: EmulatorContext, schema: 'main' | 'snap') =>
  (ctx.db.prepare(`SELECT version FROM ${schema}.emulator_migrations ORDER BY version`).raw().all() as [number][])
    .map((r) => r[0])
    .join(',');

/** Tables copied on restore: all but SQLite's own, the migration record and the full-text index (kept by triggers). */
function stateTables(ctx: EmulatorContext): string[] {
  return (
    ctx.db
      .prepare(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'emulator_migrations' AND name NOT LIKE 'products_text%'",
      )
      .raw()
      .all() as [string][]
  ).map((r) => r[0]);
}

/**
 * Replaces the state with a snapshot's, in one transaction: a snapshot of another schema version,
 * or a file that is not one, is refused (400) and the state is left as it was. Errors name the
 * snapshot only: nothing about other files, paths or what the driver said.
 */
export function readSnapshot(
  ctx: EmulatorContext,
  dir: string | undefined,
  name: string,
): { name: string; tenants: string[] } {
  const source = fileOf(dir, name);
  let regular = false;
  try {
    regular = lstatSync(source).isFile();
  } catch {
    // absent: same answer as any other unreadable snapshot below
  }
  if (!regular) throw new ControlError(400, 'snapshot_unreadable', `No snapshot named "${name}"`);
  try {
    ctx.db.prepare('ATTACH DATABASE ? AS snap').run(source);
  } catch {
    throw new ControlError(400, 'snapshot_unreadable', `Snapshot "${name}" cannot be read`);
  }
  try {
    let theirs: string;
    try {
      theirs = versions(ctx, 'snap');
    } catch {
      throw new ControlError(400, 'snapshot_incompatible', `Snapshot "${name}" is not an emulator snapshot`);
    }
    if (theirs !== versions(ctx, 'main')) {
      throw new ControlError(
        400,
        'snapshot_incompatible',
        `Snapshot "${name}" holds schema versions ${theirs}, this emulator ${versions(ctx, 'main')}`,
      );
    }
    const tables = stateTables(ctx);
    ctx.db.transaction(() => {
      ctx.db.pragma('defer_foreign_keys = ON');
      for (const table of tables) ctx.db.prepare(`DELETE FROM main."${table}"`).run();
      ctx.db.prepare('DELETE FROM main.sqlite_sequence').run();
      for (const table of tables) ctx.db.prepare(`INSERT INTO main."${table}" SELECT * FROM snap."${table}"`).run();
      ctx.db.prepare('INSERT INTO main.sqlite_sequence SELECT * FROM snap.sqlite_sequence').run();
    })();
  } finally {
    ctx.db.prepare('DETACH DATABASE snap').run();
  }
  const tenants = (ctx.db.prepare('SELECT id FROM tenants ORDER BY id').raw().all() as [string][]).map((r) => r[0]);
  return { name, tenants };
}
