import "server-only";
import type { ShareEmailResponse } from "@/lib/contracts/share-emails";
import type { AuthedCtx } from "../context";
import { presentShareEmail } from "./present-share-emails";
import { getOwnShareEmailOrThrow } from "./share-email-access";

/** GET /share/email/(id): its owner or an administrator, with per-recipient statistics; anyone else 404. */
export async function readShareEmail(ctx: AuthedCtx, id: number, base: string): Promise<ShareEmailResponse> {
  return presentShareEmail(ctx.db, await getOwnShareEmailOrThrow(ctx.db, ctx.actor.user, id), base);
}
