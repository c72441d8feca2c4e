import "server-only";
import { getDb } from "@/db";
import { getAuthSecret } from "../auth/secret";
import { startWorker } from "../jobs/worker";
import { ensureFirstAdmin } from "./ensure-first-admin";

/**
 * Runs once per server process: migrations (inside getDb), first administrator, job worker.
 * A database that is down at start must not leave the server broken: retry until it answers
 * (requests meanwhile get 503 from the route factory).
 */
export async function startServer() {
  for (let attempt = 1; ; attempt++) {
    try {
      const db = await getDb();
      await ensureFirstAdmin(db);
      // Read once here, outside any transaction: on PGlite (one connection) a first read from
      // inside one (signing links are made in the activation's transaction) would wait forever.
      await getAuthSecret();
      break;
    } catch (error) {
      console.error(`[coffre] start-up attempt ${attempt} failed: ${(error as Error).message}; retrying in 2 s`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  if (process.env.COFFRE_WORKER !== "0") startWorker();
}
