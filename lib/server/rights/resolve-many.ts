import "server-only";
import type { DbOrTx } from "@/db";
import type { User } from "@/db/schema";
import { resolveRights } from "./resolve-rights";
import type { Rights } from "./rights";

/** resolveRights for any number of folders: slices keep each query well under the driver's parameter limit. */
export async function resolveRightsMany(db: DbOrTx, user: Pick<User, "id" | "role">, folderIds: number[]): Promise<Map<number, Rights>> {
  const ids = [...new Set(folderIds)];
  if (ids.length <= 5000) return resolveRights(db, user, ids);
  const result = new Map<number, Rights>();
  for (let i = 0; i < ids.length; i += 5000) {
    for (const [id, rights] of await resolveRights(db, user, ids.slice(i, i + 5000))) result.set(id, rights);
  }
  return result;
}
