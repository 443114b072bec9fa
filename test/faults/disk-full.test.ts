import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildService, spawnService } from '../inbound/child-service.js';
import { until } from '../support/wait.js';
import { CONNECTION, Traffic } from './traffic.js';

/** The deadline: acknowledgements resume within this of space coming back. */
const RESUME_DEADLINE_MS = 15_000;

/** Fills the filesystem of `file`'s directory to the last byte; returns the bytes written. */
function fill(file: string): number {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024, 7);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  // The last bytes a partial chunk can still take.
  const small = openSync(file, 'a');
  try {
    for (;;) written += writeSync(small, Buffer.alloc(512, 7));
  } catch {
    // ENOSPC: full to the last block
  } finally {
    closeSync(small);
  }
  return written;
}

const walBytes = (db: string) => {
  try {
    return statSync(`${db}-wal`).size;
  } catch {
    return 0;
  }
};

/**
 * `wms-sync serve` on SQLite, its data directory on a real 40 MB tmpfs mounted here (the suite
 * runs as root, as CI does), receiving webhooks from 8 senders while a file fills the filesystem
 * to the last byte, then is deleted.
 */
describe('a full disk under webhook traffic (SQLite on a 40 MB tmpfs)', () => {
  const mount = mkdtempSync(join(tmpdir(), 'wms-sync-faults-'));
  const dbFile = join(mount, 'wms-sync.db');
  let child: ChildService | undefined;
  let mounted = false;

  beforeAll(() => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', mount]);
    mounted = true;
  });
  afterAll(async () => {
    await child?.kill();
    // Lazy: a child killed a moment ago may still hold files open while it exits.
    if (mounted) execFileSync('umount', ['-l', mount]);
    rmdirSync(mount);
  });

  it('answers 503 while full, never 500, lives, resumes within 15 s of space returning, and loses nothing', async () => {
    child = await spawnService({ ...CONNECTION, DATA_DIR: mount, DATA_MIN_FREE_MB: '4' }, { timeoutMs: 60_000 });
    const exited: { code: number | null }[] = [];
    child.process.once('exit', (code) => exited.push({ code }));
    const traffic = new Traffic(child.url, 8, 'FULL');
    await until(() => traffic.acked.size >= 200, { timeoutMs: 60_000, message: '200 acknowledged before the fill' });

    const filler = join(mount, 'filler');
    const filledAt = Date.now();
    fill(filler);
    await until(() => traffic.refusedSince(filledAt) >= 50, {
      timeoutMs: 30_000,
      message: `webhooks refused when full (answers so far: ${JSON.stringify(Object.fromEntries(traffic.statuses))})`,
    });
    // Full for a while: the worker, the checkpoints and the queue all meet the full disk.
    const fullUntil = Date.now() + 3_000;
    await until(() => Date.now() >= fullUntil, { timeoutMs: 10_000, everyMs: 100 });

    rmSync(filler);
    const freedAt = Date.now();
    await until(() => traffic.firstAckAfter(freedAt), {
      timeoutMs: RESUME_DEADLINE_MS + 5_000,
      message: 'acknowledgements resume',
    });
    const resumeMs = traffic.firstAckAfter(freedAt)! - freedAt;
    const ackedAfter = traffic.acked.size;
    await until(() => traffic.acked.size >= ackedAfter + 100, { timeoutMs: 30_000, message: '100 more acknowledged' });
    await traffic.stop();

    const health = await fetch(`${child.url}/healthz`);
    expect(health.status).toBe(200);
    expect(exited).toEqual([]);
    expect(traffic.statuses.get(500) ?? 0).toBe(0);
    expect(traffic.statuses.get(0) ?? 0).toBe(0);
    expect(resumeMs).toBeLessThanOrEqual(RESUME_DEADLINE_MS);

    // Every acknowledged event processed, read from the database as the service left it.
    const db = new Database(dbFile, { readonly: true });
    try {
      const status = (code: string) =>
        db
          .prepare('SELECT status FROM inbound_events WHERE connection = ? AND dedupe_key = ?')
          .pluck()
          .get('acme', `reception-close:${code}`);
      await until(() => [...traffic.acked].every((code) => status(code) === 'processed'), {
        timeoutMs: 90_000,
        everyMs: 500,
        message: 'every acknowledged event processed',
      }).catch((err: Error) => {
        const missing = [...traffic.acked].filter((code) => status(code) !== 'processed');
        const events = db
          .prepare(
            `SELECT dedupe_key, status, attempts, error FROM inbound_events WHERE dedupe_key IN (SELECT value FROM json_each(?)) LIMIT 5`,
          )
          .all(JSON.stringify(missing.map((c) => `reception-close:${c}`)));
        const jobs = db
          .prepare(
            `SELECT state, retry_count, retry_limit, start_after - ? AS due_in_ms, output FROM jobs WHERE state NOT IN ('completed') LIMIT 10`,
          )
          .all(Date.now());
        throw new Error(
          `${err.message}: ${missing.length} not processed, e.g. ${JSON.stringify(events)}; jobs ${JSON.stringify(jobs)}`,
        );
      });
      const feed = db.prepare('SELECT count(*) FROM feed_entries').pluck().get() as number;
      expect(feed).toBeGreaterThanOrEqual(traffic.acked.size);
    } finally {
      db.close();
    }
    // The WAL gives its space back once the writes pause.
    await until(() => walBytes(dbFile) < 1024 * 1024, { timeoutMs: 15_000, message: 'the WAL shrank' });
    const metrics = await (await fetch(`${child.url}/metrics`)).text();
    expect(metrics).toMatch(/^wms_sync_storage_short 0$/m);

    await child.stop();
    child = undefined;
    const check = new Database(dbFile, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      check.close();
    }
    process.stdout.write(
      `[faults] sqlite full disk: ${traffic.acked.size} acknowledged, answers ${JSON.stringify(Object.fromEntries(traffic.statuses))}, resumed ${resumeMs} ms after space returned\n`,
    );
  });
});
