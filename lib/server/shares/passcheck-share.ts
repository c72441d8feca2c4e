import "server-only";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { checkLinkSecret, type LinkSecret } from "../links/passcheck";
import { sendLinkCode } from "../links/sms";
import type { ShareVisit } from "../links/resolve-link-visitor";
import { protectionOf } from "./load-share";
import { recordShareAccess } from "./record-access";

/**
 * POST /share/key/(key)/passcheck: the password and/or SMS code against an access token valid 2
 * hours. A wrong answer is an access of kind `refused` in the share's activity.
 */
export async function passcheckShare(ctx: Ctx, { share }: ShareVisit, secret: LinkSecret): Promise<{ access_token: string }> {
  return checkLinkSecret(ctx.db, protectionOf(share), secret, ctx.request.ip, () => recordShareAccess(ctx.db, share, ctx.request, { kind: "refused" }));
}

/** POST /share/key/(key)/sms: sends a code to the share's phone, which the visitor never sees. */
export async function sendShareCode(ctx: Ctx, { share }: ShareVisit): Promise<void> {
  if (!protectionOf(share).needsCode || !share.phone) throw new AppError("invalid_request", "This link is not protected by an SMS code");
  await sendLinkCode(ctx.db, { linkType: "share", linkId: share.id, phone: share.phone }, (code) => `Your code to open the shared link: ${code} (valid 10 minutes)`);
}
