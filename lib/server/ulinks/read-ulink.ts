import "server-only";
import type { UlinkResponse } from "@/lib/contracts/ulinks";
import type { AuthedCtx } from "../context";
import { presentUlink } from "./present-ulinks";
import { getOwnUlinkOrThrow } from "./ulink-access";

/** GET /ulink/(id): its owner or an administrator; anyone else 404. */
export async function readUlink(ctx: AuthedCtx, ulinkId: number, base: string): Promise<UlinkResponse> {
  return presentUlink(ctx.db, await getOwnUlinkOrThrow(ctx.db, ctx.actor.user, ulinkId), base);
}
