import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyStore } from '../../src/store/index.js';
import { migrationsFolder } from '../../src/store/migrations.js';
import { tempDir } from '../support/tmp.js';

/** The last migration before the tables were renamed (wms_pushes, wms_push_waits, feed_entries). */
const BEFORE = { sqlite: '0009_last_ares', postgres: '0008_busy_whizzer' } as const;

/** A copy of the dialect's migrations that stops at `last`, to build a database as it was then. */
function migrationsUpTo(dialect: 'sqlite' | 'postgres', dir: string): string {
  const folder = join(dir, dialect);
  cpSync(migrationsFolder[dialect], folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === BEFORE[dialect]);
  if (end < 0) throw new Error(`no migration ${BEFORE[dialect]}`);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/**
 * A database holding rows under the names the tables had before (outbound_records, outbound_waits,
 * confirmations, erp_deliveries.confirmation_id, erp_delivery_cursors.last_confirmation_id) is
 * migrated, and every row is read back through the repositories under the new names.
 */
export function renamesSuite(
  dialect: 'sqlite' | 'postgres',
  open: () => Promise<{ store: AnyStore; close: () => Promise<void> }>,
): void {
  describe(`migrating the renamed tables keeps their rows (${dialect})`, () => {
    const tmp = tempDir('renames');
    afterAll(() => tmp.remove());

    it('pushes, their waits, the feed, ERP deliveries and cursors are all there after the migration', async () => {
      const { store, close } = await open();
      try {
        const folder = migrationsUpTo(dialect, tmp.dir);
        const at = Date.UTC(2026, 10, 20, 10, 0, 0);
        if (store.dialect === 'sqlite') {
          const raw = store.database.raw;
          migrateSqlite(store.database.orm, { migrationsFolder: folder });
          raw
            .prepare(
              `INSERT INTO outbound_records (connection, entity, external_code, payload, payload_hash, state, attempts, created_at, updated_at)
               VALUES ('acme', 'product', 'P-1', '{"sku":"P-1"}', 'h1', 'synced', 1, ?, ?), ('acme', 'document', 'SO-1', '{"lines":[]}', 'h2', 'pending', 0, ?, ?)`,
            )
            .run(at, at, at, at);
          raw
            .prepare(
              `INSERT INTO outbound_waits (connection, record_id, entity, external_code, created_at) VALUES ('acme', 2, 'product', 'P-2', ?)`,
            )
            .run(at);
          raw
            .prepare(
              `INSERT INTO confirmations (connection, type, dedupe_key, source_event_id, data, created_at)
               VALUES ('acme', 'stock.adjusted', 'k1', NULL, '{"n":1}', ?), ('acme', 'stock.adjusted', 'k2', NULL, '{"n":2}', ?)`,
            )
            .run(at, at);
          raw
            .prepare(
              `INSERT INTO erp_deliveries (connection, confirmation_id, type, order_key, status, attempts, next_attempt_at, feed_at, created_at, updated_at, head)
               VALUES ('acme', 2, 'stock.adjusted', 'lot:P-1|', 'pending', 0, ?, ?, ?, ?, 1)`,
            )
            .run(at, at, at, at);
          raw
            .prepare(
              `INSERT INTO erp_delivery_cursors (connection, last_confirmation_id, updated_at) VALUES ('acme', 2, ?)`,
            )
            .run(at);
        } else {
          const client = await store.database.pool.connect();
          try {
            await migratePg(store.database.ormFor(client), {
              migrationsFolder: folder,
              migrationsSchema: store.database.schema,
            });
            const ts = new Date(at);
            await client.query(
              `INSERT INTO outbound_records (connection, entity, external_code, payload, payload_hash, state, attempts, created_at, updated_at)
               VALUES ('acme', 'product', 'P-1', '{"sku":"P-1"}', 'h1', 'synced', 1, $1, $1), ('acme', 'document', 'SO-1', '{"lines":[]}', 'h2', 'pending', 0, $1, $1)`,
              [ts],
            );
            await client.query(
              `INSERT INTO outbound_waits (connection, record_id, entity, external_code, created_at) VALUES ('acme', 2, 'product', 'P-2', $1)`,
              [ts],
            );
            await client.query(
              `INSERT INTO confirmations (connection, type, dedupe_key, source_event_id, data, created_at)
               VALUES ('acme', 'stock.adjusted', 'k1', NULL, '{"n":1}', $1), ('acme', 'stock.adjusted', 'k2', NULL, '{"n":2}', $1)`,
              [ts],
            );
            await client.query(
              `INSERT INTO erp_deliveries (connection, confirmation_id, type, order_key, status, attempts, next_attempt_at, feed_at, created_at, updated_at, head)
               VALUES ('acme', 2, 'stock.adjusted', 'lot:P-1|', 'pending', 0, $1, $1, $1, $1, true)`,
              [ts],
            );
            await client.query(
              `INSERT INTO erp_delivery_cursors (connection, last_confirmation_id, updated_at) VALUES ('acme', 2, $1)`,
              [ts],
            );
          } finally {
            client.release();
          }
        }

        await store.migrate();

        const product = await store.pushes.get('acme', 'product', 'P-1');
        expect(product).toMatchObject({
          id: 1,
          payload: { sku: 'P-1' },
          payloadHash: 'h1',
          state: 'synced',
          attempts: 1,
        });
        expect(product?.createdAt.getTime()).toBe(at);
        expect(await store.pushes.waitsOf(2)).toMatchObject([{ entity: 'product', externalCode: 'P-2' }]);
        expect(await store.pushes.hasWaiters('acme', { entity: 'product', externalCode: 'P-2' })).toBe(true);
        const feed = await store.feed.listAfter('acme', 0, 10);
        expect(feed.map((e) => [e.id, e.dedupeKey, e.data])).toEqual([
          [1, 'k1', { n: 1 }],
          [2, 'k2', { n: 2 }],
        ]);
        // The ids go on from where they were: the identity (or AUTOINCREMENT) followed the table.
        const next = await store.feed.append({
          connection: 'acme',
          type: 'stock.adjusted',
          dedupeKey: 'k3',
          data: { n: 3 },
          at: new Date(at),
        });
        expect(next.feedEntry.id).toBe(3);
        const pushed = await store.pushes.upsert({
          connection: 'acme',
          entity: 'product',
          externalCode: 'P-2',
          payload: { sku: 'P-2' },
          payloadHash: 'h3',
          at: new Date(at),
        });
        expect(pushed.record.id).toBe(3);
        expect(await store.erpDeliveries.get(1)).toMatchObject({
          feedEntryId: 2,
          orderKey: 'lot:P-1|',
          status: 'pending',
        });
        const cursor = await store.transaction((tx) => tx.erpDeliveries.lockCursor('acme', new Date(at)));
        expect(cursor).toBe(2);
      } finally {
        await close();
      }
    });
  });
}
