import type { DbOrTx } from '#db/client';

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
