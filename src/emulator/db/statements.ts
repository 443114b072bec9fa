import type Database from 'better-sqlite3';

/**
 * Prepared statements by SQL text. Criteria lists build SQL per filter shape, so the cache is
 * bounded; the oldest entry goes first when it is full.
 */
export function statementCache(db: Database.Database, max = 500): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
    }
    return statement;
  };
}
