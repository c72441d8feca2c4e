import "server-only";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { platformConfig } from "@/db/schema";

let secret: Promise<string> | undefined;

/**
 * AUTH_SECRET when set; otherwise one random secret kept in the database, so every process on
 * the same database signs web sessions alike and a restart keeps people signed in.
 */
export function getAuthSecret(): Promise<string> {
  const fromEnv = process.env.AUTH_SECRET ?? process.env.NEXTAUTH_SECRET;
  if (fromEnv) return Promise.resolve(fromEnv);
  secret ??= (async () => {
    const db = await getDb();
    await db
      .insert(platformConfig)
      .values({ key: "auth_secret", value: randomBytes(32).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await db.select().from(platformConfig).where(sql`${platformConfig.key} = 'auth_secret'`);
    return String(row.value);
  })();
  return secret;
}
