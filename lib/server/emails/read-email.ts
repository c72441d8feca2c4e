import "server-only";
import type { EmailResponse } from "@/lib/contracts/emails";
import type { AuthedCtx } from "../context";
import { getVisibleEmailOrThrow } from "./email-access";
import { presentEmail } from "./present-emails";

/** GET /email/(id): the caller's own email, or any for an administrator. */
export async function readEmail(ctx: AuthedCtx, emailId: number): Promise<EmailResponse> {
  return presentEmail(ctx.db, await getVisibleEmailOrThrow(ctx.db, ctx.actor.user, emailId));
}
