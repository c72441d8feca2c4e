import "server-only";
import { eq } from "drizzle-orm";
import { shares } from "@/db/schema";
import type { SharelinkResponse, UpdateSharelinkInput } from "@/lib/contracts/sharelinks";
import type { AuthedCtx } from "../context";
import { getOwnShareOrThrow } from "../shares/load-share";
import { updateShare } from "../shares/update-share";
import { presentSharelink } from "./present-sharelinks";
import { legacyOptions, toUpdateShareInput } from "./sharelink-options";

/** PUT /sharelink/(id) (obsolete): PUT /share/(id)'s service with the legacy options mapped, in one transaction. */
export async function updateSharelink(ctx: AuthedCtx, shareId: number, input: UpdateSharelinkInput, base: string): Promise<SharelinkResponse> {
  return ctx.db.transaction(async (tx) => {
    const current = await getOwnShareOrThrow(tx, ctx.actor.user, shareId, { forUpdate: true });
    await updateShare({ ...ctx, db: tx }, current.id, toUpdateShareInput(input, current), base);
    const [share] = await tx.update(shares).set({ legacy: legacyOptions(input, current.legacy) }).where(eq(shares.id, current.id)).returning();
    return presentSharelink(tx, share, base, { owner: true, unlocked: true });
  });
}
