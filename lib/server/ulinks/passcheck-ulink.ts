import "server-only";
import type { Ctx } from "../context";
import { FOLDER_EVENT, recordEvent } from "../events/record-event";
import { checkLinkSecret, type LinkSecret } from "../links/passcheck";
import type { UlinkVisit } from "../links/resolve-link-visitor";
import { ulinkProtection } from "./ulink-access";

/**
 * POST /ulink/key/(key)/passcheck (no account): the password and/or SMS code → `{access_token}`
 * valid 4 hours, to send with each deposit. Wrong answers 403, throttled to 429, and an event of
 * the link's folder timeline (like its deposits), so the owner sees them.
 */
export async function passcheckUlink(ctx: Ctx, { link }: UlinkVisit, secret: LinkSecret): Promise<{ access_token: string }> {
  const onRefused = async () => {
    if (link.folderId === null) return;
    await recordEvent(ctx.db, ctx.request, { targetType: "folder", targetId: link.folderId, type: FOLDER_EVENT.dropLinkRefused, actorId: null, data: { ulink_id: link.id } });
  };
  return checkLinkSecret(ctx.db, ulinkProtection(link), secret, ctx.request.ip, onRefused);
}
