import { createIdentityProviderBody, identityProviderResponse } from "@/lib/contracts/identity-providers";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { createIdentityProvider } from "@/lib/server/identity/create-identity-provider";

export const runtime = "nodejs";

// POST /api/identity/provider: create a provider (fields validated per type; secrets stored encrypted)
export const POST = route({ auth: "admin", body: createIdentityProviderBody, response: { 201: identityProviderResponse } }, async ({ ctx, body }) => created(await createIdentityProvider(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
