import "server-only";
import { eq } from "drizzle-orm";
import { shares } from "@/db/schema";
import type { CreateSharelinkInput, SharelinkResponse } from "@/lib/contracts/sharelinks";
import type { AuthedCtx } from "../context";
import { createShare } from "../shares/create-share";
import { presentSharelink } from "./present-sharelinks";
import { legacyOptions, toCreateShareInput } from "./sharelink-options";

/**
 * POST /sharelink (obsolete): a current link share on the given files, created by POST /share's
 * own service (rights, feature, flags, events, log), with the legacy options it has no column for
 * kept in `shares.legacy`, in one transaction. 201 legacy Link share.
 */
export async function createSharelink(ctx: AuthedCtx, input: CreateSharelinkInput, base: string): Promise<SharelinkResponse> {
  return ctx.db.transaction(async (tx) => {
    const created = await createShare({ ...ctx, db: tx }, toCreateShareInput(input), base);
    const [share] = await tx.update(shares).set({ legacy: legacyOptions(input, null) }).where(eq(shares.id, created.id)).returning();
    return presentSharelink(tx, share, base, { owner: true, unlocked: true });
  });
}
