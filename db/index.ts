import "server-only";
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { dataDir } from "@/lib/config/data-dir";
import * as schema from "./schema";
import type { Sql } from "postgres";

export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** A database handle or an open transaction: services accept either. */
export type DbOrTx = Db | Tx;

type Handle = { db: Db; driver: "postgres" | "pglite"; close: () => Promise<void> };

const MIGRATIONS = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");
// One handle per process, kept on globalThis so hot reload never opens a second PGlite copy
// of the same folder (environment.md, trap 6).
const store = globalThis as unknown as { __coffreDb?: Promise<Handle> };

export function getDb(): Promise<Db> {
  store.__coffreDb ??= open().catch((error) => {
    store.__coffreDb = undefined;
    throw error;
  });
  return store.__coffreDb.then((h) => h.db);
}

export async function getDriver(): Promise<Handle["driver"]> {
  return (await (store.__coffreDb ?? open())).driver;
}

export async function closeDb(): Promise<void> {
  const handle = store.__coffreDb;
  store.__coffreDb = undefined;
  if (handle) await (await handle).close();
}

async function open(): Promise<Handle> {
  const url = process.env.DATABASE_URL;
  return url ? openPostgres(url) : openPglite();
}

async function openPostgres(url: string): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(url, {
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    onnotice: () => {},
    connect_timeout: 5,
  });
  const db = drizzle({ client: preparing(client), schema });
  // Several processes may start together on one database: serialise the migrations.
  const lock = await client.reserve();
  try {
    await lock`SELECT pg_advisory_lock(727001)`;
    await migrate(db, { migrationsFolder: MIGRATIONS });
  } finally {
    await lock`SELECT pg_advisory_unlock(727001)`.catch(() => {});
    lock.release();
  }
  return { db, driver: "postgres", close: () => client.end({ timeout: 5 }) };
}

/**
 * Drizzle sends its queries through postgres.js's `unsafe`, unprepared: each one with parameters
 * then costs two round trips (describe, then execute) and a parse and plan. Prepared, a statement
 * is described and planned once per connection and then runs in one round trip. Statements that
 * inline a list of ids (`ARRAY[1,2,3]`, see id-array.ts) stay unprepared: each list would be a
 * statement of its own, kept until the connection closes.
 */
export function preparing(client: Sql): Sql {
  const wrap = (sql: Sql): Sql =>
    new Proxy(sql, {
      get(target, property, receiver) {
        if (property === "unsafe") {
          return (query: string, args?: unknown[], options: { prepare?: boolean } = {}) =>
            target.unsafe(query, args as never, { ...options, prepare: options.prepare || !INLINE_IDS.test(query) });
        }
        if (property === "begin") {
          return (...args: unknown[]) => {
            const fn = args.pop() as (tx: Sql) => unknown;
            return (target.begin as (...a: unknown[]) => unknown)(...args, (tx: Sql) => fn(wrap(tx)));
          };
        }
        if (property === "savepoint") {
          return (...args: unknown[]) => {
            const fn = args.pop() as (tx: Sql) => unknown;
            return (target as unknown as { savepoint: (...a: unknown[]) => unknown }).savepoint(...args, (tx: Sql) => fn(wrap(tx)));
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
  return wrap(client);
}

const INLINE_IDS = /ARRAY\[\d/;

async function openPglite(): Promise<Handle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const memory = process.env.PGLITE_MEMORY === "1";
  const dir = memory ? undefined : path.join(/*turbopackIgnore: true*/ dataDir(), "db");
  if (dir) await mkdir(dir, { recursive: true });
  // A test affordance: the test run migrates one in-memory database, saves it with dumpDataDir()
  // and names the file in PGLITE_TEMPLATE (tests/helpers/global-setup.ts). Each test file's
  // database then starts from that image (1.1-1.4 s of CPU) instead of an initdb and every
  // migration (5.3-5.7 s), and migrate() below finds them all applied. Read for in-memory databases
  // only: a data folder on disk is never replaced.
  const template = memory ? process.env.PGLITE_TEMPLATE : undefined;
  const loadDataDir = template ? new Blob([await readFile(template)]) : undefined;
  const client = await PGlite.create({ dataDir: dir, extensions: { pg_trgm }, loadDataDir });
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  // Both drivers expose the same query builder; only raw `execute` results differ (see rows()).
  return { db: db as unknown as Db, driver: "pglite", close: () => client.close() };
}

/** Rows of a raw `db.execute(sql...)`, whichever driver ran it. */
export function rows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export { schema, sql };
