import type Database from 'better-sqlite3';

/**
 * Records the source of every statement prepared on `raw` from now on (better-sqlite3's own
 * method, wrapped; not our code), so a test can read the plans of the statements a store builds.
 */
export function recordStatements(raw: Database.Database): string[] {
  const statements: string[] = [];
  const prepare = raw.prepare.bind(raw);
  raw.prepare = ((source: string) => {
    statements.push(source);
    return prepare(source);
  }) as typeof raw.prepare;
  return statements;
}

/** SQLite's plan of `sql`, one line per step ("SEARCH … USING INDEX …", "SCAN …"). */
export function queryPlan(raw: Database.Database, sql: string, ...params: unknown[]): string[] {
  return (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
}
