import "server-only";
import { and, eq } from "drizzle-orm";
import { identityLinks, identityProviders } from "@/db/schema";
import type { AccountIdentityResponse, SetUserIdentityInput } from "@/lib/contracts/identity-links";
import type { AuthedCtx } from "../context";
import { AppError, forbidden, notFound } from "../errors";
import { getLiveUserOrThrow } from "../users/user-access";
import { describeLinkRefusal, linkIdentity, linkRefusal } from "./account-linking";
import { findUserLink, isSsoType, presentIdentityLink } from "./identity-link";

/**
 * PUT /user/(userId)/identity (administrators): links the account to an identity of a single
 * sign-on provider (its `sub` or NameID), for an account that cannot connect it itself (no
 * password) or at its owner's request. The one rule of account-linking.ts applies (from inside:
 * any account, if not linked to another identity); the owner is mailed, the change logged.
 * Directory accounts are made by their directory, never linked by hand.
 */
export async function setUserIdentity(ctx: AuthedCtx, userId: number, input: SetUserIdentityInput): Promise<AccountIdentityResponse> {
  const actor = ctx.actor.user;
  if (actor.role !== 3) throw forbidden("Only administrators see and link accounts' outside identities");
  return ctx.db.transaction(async (tx) => {
    const user = await getLiveUserOrThrow(tx, userId, { lock: true });
    const [provider] = await tx.select().from(identityProviders).where(eq(identityProviders.id, input.provider_id)).limit(1);
    if (!provider) throw notFound("Identity provider");
    if (!isSsoType(provider.type)) {
      throw new AppError("invalid_request", "Invalid request: only single sign-on providers (oidc, saml2) are linked by hand", [{ path: "provider_id", message: "A directory links the accounts it creates itself" }]);
    }
    const identity = { providerId: provider.id, externalId: input.external_id };
    const [owner] = await tx
      .select({ userId: identityLinks.userId })
      .from(identityLinks)
      .where(and(eq(identityLinks.providerId, provider.id), eq(identityLinks.kind, "user"), eq(identityLinks.externalId, input.external_id)))
      .limit(1);
    if (owner && owner.userId !== user.id) throw new AppError("conflict", `This ${provider.name} identity already opens another account; remove that link first`);
    if (!owner) {
      const refusal = await linkRefusal(tx, user, "inside", identity);
      if (refusal) throw new AppError("conflict", `Not linked: ${describeLinkRefusal(refusal)}; remove that link first`);
      await linkIdentity(tx, provider, user, input.external_id, "inside", { actor, request: ctx.request });
    }
    return { identity: presentIdentityLink((await findUserLink(tx, user.id))!) };
  });
}
