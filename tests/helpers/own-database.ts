import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { closeDb, getDb } from "@/db";

/**
 * Runs this test file on a PostgreSQL database of its own, for tests that change what every
 * other file would see at the same moment (a directory made unreachable, second factors forced
 * platform-wide, the route fuzzer's garbage). On PGlite each file already has its own database.
 * Call it at the top level of the file, before any other hook opens the database.
 */
export function onOwnDatabase(prefix: string) {
  let name = "";
  let admin: ReturnType<typeof postgres> | undefined;
  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      await closeDb();
      const url = new URL(process.env.DATABASE_URL);
      name = `${prefix}_${randomBytes(4).toString("hex")}`;
      admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      url.pathname = `/${name}`;
      process.env.DATABASE_URL = url.toString();
    }
    await getDb();
  }, 120_000);
  afterAll(async () => {
    await closeDb();
    if (admin && name) {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
}
