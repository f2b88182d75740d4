import type Database from 'better-sqlite3';

/**
 * Prepared statements compiled once per connection: a turn runs the same few statements many
 * times, and preparing costs more than running a small one.
 */
export function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let st = statements.get(sql);
    if (!st) {
      st = db.prepare(sql);
      statements.set(sql, st);
    }
    return st;
  };
}
