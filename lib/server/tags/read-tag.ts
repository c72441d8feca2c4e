import "server-only";
import type { TagResponse } from "@/lib/contracts/tags";
import type { AuthedCtx } from "../context";
import { presentTags } from "./present-tags";
import { getVisibleTagOrThrow } from "./tag-access";

/** GET /tag/(id): a public tag, or one of the caller's private tags. */
export async function readTag(ctx: AuthedCtx, tagId: number): Promise<TagResponse> {
  return (await presentTags(ctx.db, [await getVisibleTagOrThrow(ctx.db, ctx.actor.user, tagId)]))[0];
}
