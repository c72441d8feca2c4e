import "server-only";
import { getDb } from "@/db";
import { getAuthSecret } from "../auth/secret";
import { startWorker } from "../jobs/worker";
import { ensureFirstAdmin } from "./ensure-first-admin";

// One boot per process, shared by Next's instrumentation and server.ts (each bundles its own copy of this module).
const shared = globalThis as unknown as { __coffreBoot?: Promise<void> };

/**
 * Boots the process once: migrations (inside getDb), first administrator, job worker. Settles
 * after the first attempt: server.ts answers the API itself, so it waits for this before it
 * listens (a sign-in must find the administrator). A database that is down at start must not
 * leave the server broken: the attempts go on behind, and requests meanwhile get 503 from the
 * route factory.
 */
export function bootOnce(): Promise<void> {
  shared.__coffreBoot ??= new Promise((firstAttemptSettled) => void startServer(firstAttemptSettled));
  return shared.__coffreBoot;
}

async function startServer(firstAttemptSettled: () => void) {
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
      firstAttemptSettled();
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  if (process.env.COFFRE_WORKER !== "0") startWorker();
  firstAttemptSettled();
}
