import "server-only";
import { eq, inArray } from "drizzle-orm";
import { groups, identityLinks, identityProviders, users } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { assertIdentityAdmin, getIdentityProviderOrThrow } from "./get-identity-provider";

/**
 * DELETE /identity/provider/(id): 204. The accounts and groups it brought stay (their files and
 * rights with them) and become local: administrators may edit them again, and an account signs
 * in once an administrator gives it a password.
 */
export async function deleteIdentityProvider(ctx: AuthedCtx, providerId: number) {
  assertIdentityAdmin(ctx);
  await ctx.db.transaction(async (tx) => {
    const provider = await getIdentityProviderOrThrow(tx, providerId);
    const links = await tx
      .select({ userId: identityLinks.userId, groupId: identityLinks.groupId })
      .from(identityLinks)
      .where(eq(identityLinks.providerId, providerId));
    const userIds = links.flatMap((l) => (l.userId === null ? [] : [l.userId]));
    const groupIds = links.flatMap((l) => (l.groupId === null ? [] : [l.groupId]));
    if (userIds.length) await tx.update(users).set({ ldap: false }).where(inArray(users.id, userIds));
    if (groupIds.length) await tx.update(groups).set({ ldap: false }).where(inArray(groups.id, groupIds));
    await tx.delete(identityProviders).where(eq(identityProviders.id, providerId));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_DELETE",
      message: `Deleted identity provider ${provider.name} (${provider.type}); ${userIds.length} account(s) and ${groupIds.length} group(s) became local`,
      objectType: "identity_provider",
      objectId: provider.id,
      object: provider.name,
    });
  });
}
