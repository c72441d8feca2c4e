import "server-only";
import type { UlinkEmailResponse } from "@/lib/contracts/ulinks";
import type { AuthedCtx } from "../context";
import { presentUlinkEmail } from "./present-ulink-emails";
import { getOwnUlinkEmailOrThrow } from "./ulink-email-access";

/** GET /ulink/email/(id): its owner or an administrator; anyone else 404. */
export async function readUlinkEmail(ctx: AuthedCtx, id: number, base: string): Promise<UlinkEmailResponse> {
  return presentUlinkEmail(ctx.db, await getOwnUlinkEmailOrThrow(ctx.db, ctx.actor.user, id), base);
}
