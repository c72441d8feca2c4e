import "server-only";
import type { PublicUlinkResponse } from "@/lib/contracts/ulinks";
import type { Ctx } from "../context";
import { presentPublicUlink } from "./present-ulinks";
import type { UlinkVisit } from "../links/resolve-link-visitor";

/**
 * GET /ulink/key/(key) (no account): enough for the drop page (name, owner, expiration, which
 * secret to ask for), never the folder, its size nor its content. 404 `link_not_found`,
 * 410 `link_expired`.
 */
export async function readPublicUlink(ctx: Ctx, { link }: UlinkVisit): Promise<PublicUlinkResponse> {
  return presentPublicUlink(ctx.db, link, true);
}
