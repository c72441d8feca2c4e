import "server-only";
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users } from "@/db/schema";
import { displayName } from "../audit/write-log";

/** Display names of several users in one query (for owner fields). */
export async function loadOwnerNames(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const found = await db
    .select({ id: users.id, login: users.login, firstname: users.firstname, lastname: users.lastname })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(found.map((u) => [u.id, displayName(u)]));
}
