import "server-only";
import type { Ctx } from "../context";
import { checkLinkSecret, type LinkSecret } from "../links/passcheck";
import { openUlinkOrThrow, ulinkProtection } from "./ulink-access";

/**
 * POST /ulink/key/(key)/passcheck (no account): the password and/or SMS code → `{access_token}`
 * valid 4 hours, to send with each deposit. Wrong answers 403, throttled to 429.
 */
export async function passcheckUlink(ctx: Ctx, key: string, secret: LinkSecret): Promise<{ access_token: string }> {
  const { link } = await openUlinkOrThrow(ctx.db, key);
  return checkLinkSecret(ctx.db, ulinkProtection(link), secret, ctx.request.ip);
}
