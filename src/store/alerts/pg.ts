import type pg from 'pg';
import type { AlertsRepo } from './contract.js';
import { groupOf, IN_ORDER, messageOf, type RawGroup, type RawMessage } from './rows.js';

type InTransaction = <T>(fn: (client: pg.PoolClient) => Promise<T>) => Promise<T>;

/**
 * Notifications on Postgres. Groups are locked `FOR UPDATE SKIP LOCKED` while decided, and
 * messages while leased, so processes sharing the database tell each thing once.
 */
export function pgAlerts(inTransaction: InTransaction): AlertsRepo {
  return {
    record: (raised, cleared) =>
      inTransaction(async (client) => {
        // In a fixed order, so two processes recording the same groups never wait on each other in a cycle.
        const sorted = [...raised].sort((a, b) =>
          `${a.connection}\u0000${a.kind}`.localeCompare(`${b.connection}\u0000${b.kind}`),
        );
        for (const r of sorted)
          await client.query(
            `INSERT INTO alert_groups AS g (connection, kind, firing, sticky, cleared, pending, total, first_at, last_at, notified_at, detail)
             VALUES ($1, $2, true, $3, false, $4, $4, $5, $6, NULL, $7)
             ON CONFLICT (connection, kind) DO UPDATE SET
               pending = g.pending + EXCLUDED.pending,
               total = CASE WHEN g.firing THEN g.total + EXCLUDED.total ELSE EXCLUDED.total END,
               first_at = CASE WHEN g.firing THEN g.first_at ELSE EXCLUDED.first_at END,
               notified_at = CASE WHEN g.firing THEN g.notified_at ELSE NULL END,
               last_at = EXCLUDED.last_at, firing = true, cleared = false, sticky = EXCLUDED.sticky, detail = EXCLUDED.detail`,
            [r.connection, r.kind, r.sticky, r.count, r.firstAt, r.lastAt, r.detail],
          );
        for (const c of cleared)
          await client.query('UPDATE alert_groups SET cleared = true WHERE connection = $1 AND kind = $2 AND firing', [
            c.connection,
            c.kind,
          ]);
      }),

    notifyDue: (now, decide) =>
      inTransaction(async (client) => {
        const { rows } = await client.query<RawGroup>(
          'SELECT * FROM alert_groups WHERE firing ORDER BY connection, kind FOR UPDATE SKIP LOCKED',
        );
        let stored = 0;
        for (const g of rows.map(groupOf)) {
          const decision = decide(g);
          if (!decision) continue;
          for (const m of decision.messages) {
            await client.query(
              `INSERT INTO alert_messages (connection, kind, phase, url, format, body, state, attempts, next_attempt_at, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, $7)`,
              [m.connection, m.kind, m.phase, m.url, m.format, m.body, now],
            );
            stored += 1;
          }
          await client.query(
            decision.phase === 'firing'
              ? 'UPDATE alert_groups SET pending = 0, notified_at = $1 WHERE connection = $2 AND kind = $3'
              : 'UPDATE alert_groups SET firing = false, cleared = false, pending = 0, total = 0, notified_at = $1 WHERE connection = $2 AND kind = $3',
            [now, g.connection, g.kind],
          );
        }
        return stored;
      }),

    claim: ({ owner, now, leaseUntil, limit }) =>
      inTransaction(async (client) => {
        const { rows } = await client.query<RawMessage>(
          `UPDATE alert_messages SET lease_owner = $1, lease_until = $2
           WHERE id IN (SELECT m.id FROM alert_messages m
                        WHERE m.state = 'pending' AND m.next_attempt_at <= $3 AND (m.lease_until IS NULL OR m.lease_until < $3)
                          AND ${IN_ORDER}
                        ORDER BY m.next_attempt_at, m.id LIMIT $4 FOR UPDATE SKIP LOCKED)
           RETURNING *`,
          [owner, leaseUntil, now, limit],
        );
        return rows.map(messageOf).sort((a, b) => a.id - b.id);
      }),

    finish: (owner, results) =>
      inTransaction(async (client) => {
        for (const r of results)
          await client.query(
            `UPDATE alert_messages SET state = $1, attempts = attempts + 1, next_attempt_at = $2, last_error = $3,
               sent_at = $4, lease_owner = NULL, lease_until = NULL
             WHERE id = $5 AND lease_owner = $6`,
            [
              r.outcome === 'retry' ? 'pending' : r.outcome,
              r.nextAttemptAt ?? r.at,
              r.error,
              r.outcome === 'sent' ? r.at : null,
              r.id,
              owner,
            ],
          );
      }),

    prune: (before, dryRun) =>
      inTransaction(async (client) => {
        const where = "FROM alert_messages WHERE state <> 'pending' AND created_at < $1";
        const result = dryRun
          ? Number((await client.query<{ n: string }>(`SELECT count(*) AS n ${where}`, [before])).rows[0]!.n)
          : ((await client.query(`DELETE ${where}`, [before])).rowCount ?? 0);
        return { messages: result };
      }),

    groups: () =>
      inTransaction(async (client) =>
        (await client.query<RawGroup>('SELECT * FROM alert_groups ORDER BY connection, kind')).rows.map(groupOf),
      ),

    messages: (limit) =>
      inTransaction(async (client) =>
        (await client.query<RawMessage>('SELECT * FROM alert_messages ORDER BY id DESC LIMIT $1', [limit])).rows.map(
          messageOf,
        ),
      ),
  };
}
