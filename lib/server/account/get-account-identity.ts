import "server-only";
import type { AccountIdentityResponse } from "@/lib/contracts/identity-links";
import type { AuthedCtx } from "../context";
import { findUserLink, presentIdentityLink } from "../identity/identity-link";

/** GET /account/identity: the provider whose identity opens the caller's account, or null. */
export async function getAccountIdentity(ctx: AuthedCtx): Promise<AccountIdentityResponse> {
  const found = await findUserLink(ctx.db, ctx.actor.user.id);
  return { identity: found ? presentIdentityLink(found) : null };
}
