import "server-only";
import { and, eq } from "drizzle-orm";
import { identityProviders } from "@/db/schema";
import type { Ctx } from "../context";
import { AppError } from "../errors";
import { serviceProviderMetadata } from "./saml-service-provider";
import { ssoUrls } from "./sso-http";

/**
 * GET /sso/(id)/saml/metadata (public): the service provider's metadata for a SAML provider, at
 * a stable address that is also its entity ID, served even while the provider is disabled (the
 * identity provider's administrator registers it before anyone signs in).
 */
export async function getSamlMetadata(ctx: Ctx, req: Request, providerId: number): Promise<Response> {
  const [row] = await ctx.db
    .select({ id: identityProviders.id })
    .from(identityProviders)
    .where(and(eq(identityProviders.id, providerId), eq(identityProviders.type, "saml2")))
    .limit(1);
  if (!row) throw new AppError("not_found", "No such SAML provider");
  const xml = serviceProviderMetadata(ssoUrls(req, row.id));
  return new Response(xml, { headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8", "Cache-Control": "no-cache" } });
}
