import pg from 'pg';
import { pgFixture } from './fixtures.js';
import { storeFaultContract } from './store-fault.contract.js';

/** A real "the database is unreachable": pg's own error for a server that refuses the connection. */
async function unreachable(): Promise<Error> {
  const client = new pg.Client({
    connectionString: 'postgres://postgres@127.0.0.1:1/none',
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
  } catch (err) {
    return err as Error;
  } finally {
    await client.end().catch(() => undefined);
  }
  throw new Error('the connection did not fail');
}

storeFaultContract('pg-boss (postgres)', pgFixture('store-fault', { storeRetryDelayMs: 50 }), {
  fault: unreachable,
  tick: () => undefined,
});
