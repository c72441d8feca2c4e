import "server-only";
import type { Ctx } from "../context";
import { checkLinkSecret, type LinkSecret } from "../links/passcheck";
import type { UlinkVisit } from "../links/resolve-link-visitor";
import { ulinkProtection } from "./ulink-access";

/**
 * POST /ulink/key/(key)/passcheck (no account): the password and/or SMS code → `{access_token}`
 * valid 4 hours, to send with each deposit. Wrong answers 403, throttled to 429.
 */
export async function passcheckUlink(ctx: Ctx, { link }: UlinkVisit, secret: LinkSecret): Promise<{ access_token: string }> {
  return checkLinkSecret(ctx.db, ulinkProtection(link), secret, ctx.request.ip);
}
