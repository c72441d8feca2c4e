import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { folders, users } from "@/db/schema";

export const PRIVATE_SPACE_NAME = "Private";

/** Every user but externals owns a private space: a top-level folder listed in their roots. */
export async function createPrivateSpace(db: DbOrTx, userId: number): Promise<number> {
  const [root] = await db
    .insert(folders)
    .values({ name: PRIVATE_SPACE_NAME, parentId: null, path: [], ownerId: userId, space: "private", quota: 0 })
    .returning({ id: folders.id });
  await db.update(users).set({ privateRootId: root.id }).where(eq(users.id, userId));
  return root.id;
}
