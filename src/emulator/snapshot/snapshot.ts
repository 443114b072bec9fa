import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { EmulatorContext } from '../context.js';
import { ControlError } from '../errors.js';

/**
 * The whole state (every tenant, client, the signing key, stock, operations, webhook settings and
 * the delivery log) to a file and back. The file is a SQLite image of the emulator's database.
 */
export function writeSnapshot(ctx: EmulatorContext, file: string): { file: string; bytes: number } {
  const target = resolve(file);
  const image = ctx.db.serialize();
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  writeFileSync(partial, image);
  renameSync(partial, target); // a reader never sees half a snapshot
  return { file: target, bytes: image.length };
}

const versions = (ctx: EmulatorContext, schema: 'main' | 'snap') =>
  (ctx.db.prepare(`SELECT version FROM ${schema}.emulator_migrations ORDER BY version`).raw().all() as [number][]).map((r) => r[0]).join(',');

/** Tables copied on restore: all but SQLite's own, the migration record and the full-text index (kept by triggers). */
function stateTables(ctx: EmulatorContext): string[] {
  return (
    ctx.db
      .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'emulator_migrations' AND name NOT LIKE 'products_text%'")
      .raw()
      .all() as [string][]
  ).map((r) => r[0]);
}

/**
 * Replaces the state with a snapshot's, in one transaction: a snapshot of another schema version,
 * or a file that is not one, is refused (400) and the state is left as it was.
 */
export function readSnapshot(ctx: EmulatorContext, file: string): { file: string; tenants: string[] } {
  const source = resolve(file);
  if (!existsSync(source)) throw new ControlError(400, 'snapshot_unreadable', `No snapshot at ${source}`);
  try {
    ctx.db.prepare('ATTACH DATABASE ? AS snap').run(source);
  } catch (err) {
    throw new ControlError(400, 'snapshot_unreadable', `Cannot open ${source}: ${(err as Error).message}`);
  }
  try {
    let theirs: string;
    try {
      theirs = versions(ctx, 'snap');
    } catch {
      throw new ControlError(400, 'snapshot_incompatible', `${source} is not an emulator snapshot`);
    }
    if (theirs !== versions(ctx, 'main')) {
      throw new ControlError(400, 'snapshot_incompatible', `${source} holds schema versions ${theirs}, this emulator ${versions(ctx, 'main')}`);
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
  return { file: source, tenants };
}
