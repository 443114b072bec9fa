import type { SqliteDatabase } from '../sqlite/database.js';
import type { AlertsRepo } from './contract.js';
import { groupOf, IN_ORDER, messageOf, type RawGroup, type RawMessage } from './rows.js';

type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

/** Notifications on SQLite: every call under the store's write lock, the writes in one `BEGIN IMMEDIATE`. */
export function sqliteAlerts(raw: SqliteDatabase['raw'], exclusive: Exclusive): AlertsRepo {
  const inTx = <T>(fn: () => T): Promise<T> =>
    exclusive(async () => {
      raw.exec('BEGIN IMMEDIATE');
      try {
        const result = fn();
        raw.exec('COMMIT');
        return result;
      } catch (err) {
        if (raw.inTransaction) raw.exec('ROLLBACK');
        throw err;
      }
    });

  return {
    record: (raised, cleared) =>
      inTx(() => {
        const raise = raw.prepare(
          `INSERT INTO alert_groups (connection, kind, firing, sticky, cleared, pending, total, first_at, last_at, notified_at, detail)
           VALUES (?, ?, 1, ?, 0, ?, ?, ?, ?, NULL, ?)
           ON CONFLICT (connection, kind) DO UPDATE SET
             pending = pending + excluded.pending,
             total = CASE WHEN firing THEN total + excluded.total ELSE excluded.total END,
             first_at = CASE WHEN firing THEN first_at ELSE excluded.first_at END,
             notified_at = CASE WHEN firing THEN notified_at ELSE NULL END,
             last_at = excluded.last_at, firing = 1, cleared = 0, sticky = excluded.sticky, detail = excluded.detail`,
        );
        for (const r of raised)
          raise.run(
            r.connection,
            r.kind,
            r.sticky ? 1 : 0,
            r.count,
            r.count,
            r.firstAt.getTime(),
            r.lastAt.getTime(),
            r.detail,
          );
        const clear = raw.prepare(
          'UPDATE alert_groups SET cleared = 1 WHERE connection = ? AND kind = ? AND firing = 1',
        );
        for (const c of cleared) clear.run(c.connection, c.kind);
      }),

    notifyDue: (now, decide) =>
      inTx(() => {
        const groups = (raw.prepare('SELECT * FROM alert_groups WHERE firing = 1').all() as RawGroup[]).map(groupOf);
        const insert = raw.prepare(
          `INSERT INTO alert_messages (connection, kind, phase, url, format, body, state, attempts, next_attempt_at, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
        );
        const told = raw.prepare(
          'UPDATE alert_groups SET pending = 0, notified_at = ? WHERE connection = ? AND kind = ?',
        );
        const ended = raw.prepare(
          'UPDATE alert_groups SET firing = 0, cleared = 0, pending = 0, total = 0, notified_at = ? WHERE connection = ? AND kind = ?',
        );
        let stored = 0;
        for (const g of groups) {
          const decision = decide(g);
          if (!decision) continue;
          for (const m of decision.messages) {
            insert.run(m.connection, m.kind, m.phase, m.url, m.format, m.body, now.getTime(), now.getTime());
            stored += 1;
          }
          (decision.phase === 'firing' ? told : ended).run(now.getTime(), g.connection, g.kind);
        }
        return stored;
      }),

    claim: ({ owner, now, leaseUntil, limit }) =>
      inTx(() => {
        const rows = raw
          .prepare(
            `SELECT m.* FROM alert_messages m
             WHERE m.state = 'pending' AND m.next_attempt_at <= ? AND (m.lease_until IS NULL OR m.lease_until < ?)
               AND ${IN_ORDER}
             ORDER BY m.next_attempt_at, m.id LIMIT ?`,
          )
          .all(now.getTime(), now.getTime(), limit) as RawMessage[];
        const lease = raw.prepare('UPDATE alert_messages SET lease_owner = ?, lease_until = ? WHERE id = ?');
        for (const r of rows) lease.run(owner, leaseUntil.getTime(), r.id);
        return rows.map(messageOf);
      }),

    finish: (owner, results) =>
      inTx(() => {
        const update = raw.prepare(
          `UPDATE alert_messages SET state = ?, attempts = attempts + 1, next_attempt_at = ?, last_error = ?,
             sent_at = ?, lease_owner = NULL, lease_until = NULL
           WHERE id = ? AND lease_owner = ?`,
        );
        for (const r of results)
          update.run(
            r.outcome === 'retry' ? 'pending' : r.outcome,
            (r.nextAttemptAt ?? r.at).getTime(),
            r.error,
            r.outcome === 'sent' ? r.at.getTime() : null,
            r.id,
            owner,
          );
      }),

    prune: (before, dryRun) =>
      exclusive(async () => {
        const where = "FROM alert_messages WHERE state <> 'pending' AND created_at < ?";
        const messages = dryRun
          ? (raw.prepare(`SELECT count(*) AS n ${where}`).get(before.getTime()) as { n: number }).n
          : raw.prepare(`DELETE ${where}`).run(before.getTime()).changes;
        return { messages };
      }),

    groups: () =>
      exclusive(async () =>
        (raw.prepare('SELECT * FROM alert_groups ORDER BY connection, kind').all() as RawGroup[]).map(groupOf),
      ),

    messages: (limit) =>
      exclusive(async () =>
        (raw.prepare('SELECT * FROM alert_messages ORDER BY id DESC LIMIT ?').all(limit) as RawMessage[]).map(
          messageOf,
        ),
      ),
  };
}
