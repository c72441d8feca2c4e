import "server-only";
import type { AccountIdentityResponse } from "@/lib/contracts/identity-links";
import type { AuthedCtx } from "../context";
import { forbidden } from "../errors";
import { getLiveUserOrThrow } from "../users/user-access";
import { findUserLink, presentIdentityLink } from "./identity-link";

/** GET /user/(userId)/identity (administrators): the outside identity that opens this account, or null. */
export async function getUserIdentity(ctx: AuthedCtx, userId: number): Promise<AccountIdentityResponse> {
  if (ctx.actor.user.role !== 3) throw forbidden("Only administrators see and link accounts' outside identities");
  const user = await getLiveUserOrThrow(ctx.db, userId);
  const found = await findUserLink(ctx.db, user.id);
  return { identity: found ? presentIdentityLink(found) : null };
}
