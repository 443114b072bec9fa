import pg from 'pg';

/** The Postgres the benches use when none is given: BENCH_DATABASE_URL, TEST_DATABASE_URL, or the local test database. */
export const BENCH_PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether a Postgres answers at `url` within 2 s (benches skip their Postgres rows otherwise). */
export async function postgresAnswers(url: string = BENCH_PG_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
