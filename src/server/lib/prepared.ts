import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type DbOrTx, rowsOf } from '#db/client';

const built = new WeakMap<object, Map<string, unknown>>();

/**
 * A hot query built once per database handle and reused: drizzle's `.prepare(name)` with
 * `sql.placeholder` values. Building a query anew costs more CPU than running it (the drizzle
 * query builder, its `is()` checks); a prepared one skips all that, and on PostgreSQL it is also
 * a named server-side statement, parsed and planned once per connection. `name` must be unique
 * per query text (node-postgres refuses one name for two texts on a connection).
 */
export function prepared<T>(db: DbOrTx, name: string, build: (db: DbOrTx) => T): T {
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}

/** A statement written in SQL, prepared once: `execute` takes its placeholders' values and gives its rows. */
export interface PreparedStatement<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}

const dialect = new PgDialect();

/**
 * `prepared` for a statement the query builder cannot write (a data-modifying `WITH`, say),
 * written with drizzle's `sql` and `sql.placeholder`: the same named statement on PostgreSQL,
 * run through the same session as every other query (its logger included). Rows come as the
 * driver gives them, so the statement casts what it returns to what the caller reads (text,
 * integers, booleans; a timestamp as `to_json(...)` text).
 */
export function preparedStatement<Row>(db: DbOrTx, name: string, statement: () => SQL): PreparedStatement<Row> {
  return prepared(db, name, (d) => {
    const query = d._.session.prepareQuery(dialect.sqlToQuery(statement()), undefined, name, false);
    return {
      async execute(values: Record<string, unknown>): Promise<Row[]> {
        return rowsOf<Row>(await query.execute(values));
      },
    };
  });
}
