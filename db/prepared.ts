import type { DbOrTx } from "./index";

/**
 * A statement built once per database handle (or transaction) with drizzle's `.prepare()` and
 * `sql.placeholder()`: the query builder's work (walking the selection, rendering SQL) is done
 * once, and PostgreSQL plans it once per connection (db/index.ts, preparing()). For the
 * statements every request runs: authentication, the account, a file's versions.
 */
export function preparedOnce<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<DbOrTx, T>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) built.set(db, (statement = build(db)));
    return statement;
  };
}
