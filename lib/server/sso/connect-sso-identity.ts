import "server-only";
import { and, eq } from "drizzle-orm";
import { identityLinks, users } from "@/db/schema";
import { accountRefusal, refusalReason } from "../auth/account-state";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { describeLinkRefusal, linkIdentity, linkRefusal, logLinkRefused } from "../identity/account-linking";
import { getLiveUserOrThrow } from "../users/user-access";
import type { SsoIdentity } from "./provision-sso-user";
import { ssoFailure } from "./sso-failure";
import type { SsoProvider } from "./sso-provider";

/**
 * The end of a flow started from the account page (start-sso-connect.ts): the identity the
 * provider just proved, in the browser that started the flow, is linked to the account that
 * started it, with the rule every link obeys (account-linking.ts, evidence "inside"); its owner
 * is mailed. Nobody is signed in: the person already is. An identity already linked to another
 * account is refused (sso_account_conflict), never moved.
 */
export async function connectSsoIdentity(ctx: Ctx, provider: SsoProvider, identity: SsoIdentity, userId: number): Promise<void> {
  const refused = await ctx.db.transaction(async (tx) => {
    const user = await getLiveUserOrThrow(tx, userId, { lock: true }).catch(() => {
      throw new AppError("unauthorized", "This account no longer exists", { reason: "deleted" });
    });
    const state = accountRefusal(user);
    if (state) throw new AppError("unauthorized", state, { reason: refusalReason(user) });
    const who = { actor: user, request: ctx.request };
    const [owner] = await tx
      .select({ linkId: identityLinks.id, userId: users.id, deletedAt: users.deletedAt })
      .from(identityLinks)
      .innerJoin(users, eq(users.id, identityLinks.userId))
      .where(and(eq(identityLinks.providerId, provider.id), eq(identityLinks.kind, "user"), eq(identityLinks.externalId, identity.subject)))
      .limit(1);
    if (owner?.userId === user.id) return null;
    // The account it opened was deleted: the identity is free again (as at a sign-in).
    if (owner?.deletedAt) await tx.delete(identityLinks).where(eq(identityLinks.id, owner.linkId));
    else if (owner) throw ssoFailure("sso_account_conflict", `This ${provider.name} identity already opens another account`);
    const refusal = await linkRefusal(tx, user, "inside", { providerId: provider.id, externalId: identity.subject });
    if (refusal) return { user, refusal, who };
    await linkIdentity(tx, provider, user, identity.subject, "inside", who);
    return null;
  });
  if (!refused) return;
  await logLinkRefused(ctx.db, provider, refused.user, refused.refusal, refused.who);
  throw ssoFailure("sso_account_conflict", `Not linked to ${provider.name}: ${describeLinkRefusal(refused.refusal)}`);
}
