import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPg } from '../../src/store/pg/database.js';
import { testDatabaseUrl } from '../support/pg.js';
import { until } from '../support/wait.js';

/**
 * A PostgreSQL restart ends every session, including those of clients checked out of the pool in
 * the middle of a query. pg listens for a client's errors only while it is idle, so without a
 * listener of our own the 'error' event of a busy client is uncaught and ends the process.
 */
describe('a pooled client whose session ends while it is checked out', () => {
  const db = openPg({ url: testDatabaseUrl(), poolSize: 2, onIdleError: (err) => reported.push(err) });
  const reported: Error[] = [];
  afterAll(() => db.pool.end());

  it('rejects the query in flight, reports the error, and the pool serves the next query', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const client = await db.pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const inFlight = client.query('SELECT pg_sleep(30)').then(
        () => 'finished',
        (err: Error) => err.message,
      );
      const admin = new pg.Client({ connectionString: testDatabaseUrl() });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await admin.end();

      expect(await inFlight).toMatch(/terminat/i);
      await until(() => reported.length > 0, { timeoutMs: 10_000, message: 'the session error reported' });
      client.release(true);

      const next = await db.pool.query<{ one: number }>('SELECT 1 AS one');
      expect(next.rows[0]!.one).toBe(1);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
