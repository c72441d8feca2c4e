import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { identityLinks, identityProviders } from "@/db/schema";
import type { IdentityLinkResponse } from "@/lib/contracts/identity-links";

export type UserLink = { link: typeof identityLinks.$inferSelect; provider: typeof identityProviders.$inferSelect };

/** The outside identity an account is linked to (one at most), with its provider; null when none. */
export async function findUserLink(db: DbOrTx, userId: number): Promise<UserLink | null> {
  const [row] = await db
    .select({ link: identityLinks, provider: identityProviders })
    .from(identityLinks)
    .innerJoin(identityProviders, eq(identityProviders.id, identityLinks.providerId))
    .where(and(eq(identityLinks.userId, userId), eq(identityLinks.kind, "user")))
    .limit(1);
  return row ?? null;
}

/** The one serializer of an account's outside identity. */
export function presentIdentityLink({ link, provider }: UserLink): IdentityLinkResponse {
  return {
    provider_id: String(provider.id),
    provider_name: provider.name,
    type: provider.type,
    external_id: link.externalId,
    linked_at: link.createdAt.toISOString(),
    last_seen_at: link.seenAt.toISOString(),
  };
}

export const isSsoType = (type: string) => type === "oidc" || type === "saml2";
