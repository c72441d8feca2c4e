import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { getBlobStore } from "@/lib/server/blobs/stores";

/** GET /health: database and storage reachable; 503 when either is not. */
export async function checkHealth() {
  const [db, storage] = await Promise.all([
    probe(async () => {
      const database = await getDb();
      await database.execute(sql`SELECT 1`);
    }),
    probe(() => getBlobStore().ping()),
  ]);
  const ok = db === "ok" && storage === "ok";
  return { status: ok ? "ok" : "degraded", db, storage };
}

async function probe(check: () => Promise<void>): Promise<"ok" | "down"> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 3000))]);
    return "ok";
  } catch {
    return "down";
  }
}
