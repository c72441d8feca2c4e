import "server-only";
import { getPlatformConfig } from "../config/platform-config";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { sendLinkCode } from "../links/sms";
import type { UlinkVisit } from "../links/resolve-link-visitor";

/** POST /ulink/key/(key)/sms (no account): texts a code to the link's phone, never revealing the number. 204. */
export async function sendUlinkCode(ctx: Ctx, { link }: UlinkVisit): Promise<void> {
  if (!link.phone) throw new AppError("invalid_request", "This drop link asks for no SMS code");
  const { platform_name } = await getPlatformConfig(ctx.db);
  await sendLinkCode(ctx.db, { linkType: "ulink", linkId: link.id, phone: link.phone }, (code) => `${platform_name}: your drop link code is ${code}`);
}
