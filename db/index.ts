import { mkdir } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import * as schema from "./schema";

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
  const db = drizzle({ client, schema });
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

async function openPglite(): Promise<Handle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = process.env.PGLITE_MEMORY === "1" ? undefined : path.join(/*turbopackIgnore: true*/ dataDir(), "db");
  if (dir) await mkdir(dir, { recursive: true });
  const client = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } });
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  // Both drivers expose the same query builder; only raw `execute` results differ (see rows()).
  return { db: db as unknown as Db, driver: "pglite", close: () => client.close() };
}

export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? "./data");
}

/** Rows of a raw `db.execute(sql...)`, whichever driver ran it. */
export function rows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export { schema, sql };
