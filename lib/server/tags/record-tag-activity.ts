import "server-only";
import type { DbOrTx } from "@/db";
import { tagActivities } from "@/db/schema";

/** Records a tag activity (api.md types) in the change's transaction. */
export async function recordTagActivity(db: DbOrTx, input: { tagId: number; type: number; actorId: number; data?: Record<string, unknown> }) {
  await db.insert(tagActivities).values({ tagId: input.tagId, type: input.type, actorId: input.actorId, data: input.data ?? null });
}
