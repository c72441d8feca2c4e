import "server-only";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { checkLinkSecret, type LinkSecret } from "../links/passcheck";
import { sendLinkCode } from "../links/sms";
import { getPublicShareOrThrow, protectionOf } from "./load-share";

/** POST /share/key/(key)/passcheck: the password and/or SMS code against an access token valid 2 hours. */
export async function passcheckShare(ctx: Ctx, key: string, secret: LinkSecret): Promise<{ access_token: string }> {
  const share = await getPublicShareOrThrow(ctx.db, key);
  return checkLinkSecret(ctx.db, protectionOf(share), secret, ctx.request.ip);
}

/** POST /share/key/(key)/sms: sends a code to the share's phone, which the visitor never sees. */
export async function sendShareCode(ctx: Ctx, key: string): Promise<void> {
  const share = await getPublicShareOrThrow(ctx.db, key);
  if (!protectionOf(share).needsCode || !share.phone) throw new AppError("invalid_request", "This link is not protected by an SMS code");
  await sendLinkCode(ctx.db, { linkType: "share", linkId: share.id, phone: share.phone }, (code) => `Your code to open the shared link: ${code} (valid 10 minutes)`);
}
