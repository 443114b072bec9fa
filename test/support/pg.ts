import pg from 'pg';

/** The Postgres server the Postgres suites use; set by `.ci/run`. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: *.pg.test.ts files only run with it');
  return url;
}

/**
 * A schema of its own for one test file (named after the file and a random suffix), dropped by
 * the returned function, so suites running at the same time never see each other's rows.
 */
export async function createTestSchema(
  label: string,
): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const url = testDatabaseUrl();
  const schema = `t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.end();
  return {
    url,
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.query(`DROP SCHEMA IF EXISTS "${schema}_boss" CASCADE`);
      await c.end();
    },
  };
}
