import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import { identityProviders } from "@/db/schema";
import type { SsoProviderSummary } from "@/lib/contracts/sso";
import type { Ctx } from "../context";
import { loginPath } from "./sso-http";

/**
 * GET /sso/providers (public): the enabled OpenID Connect and SAML providers the sign-in page
 * offers, with their name, type and sign-in address only (nothing of their configuration).
 */
export async function listSsoProviders(ctx: Ctx): Promise<SsoProviderSummary[]> {
  const rows = await ctx.db
    .select({ id: identityProviders.id, name: identityProviders.name, type: identityProviders.type })
    .from(identityProviders)
    .where(and(eq(identityProviders.enable, true), eq(identityProviders.isSso, true), inArray(identityProviders.type, ["oidc", "saml2"])))
    .orderBy(asc(identityProviders.name), asc(identityProviders.id));
  return rows.map((row) => ({ id: String(row.id), name: row.name, type: row.type as "oidc" | "saml2", login_url: loginPath(row.id) }));
}
