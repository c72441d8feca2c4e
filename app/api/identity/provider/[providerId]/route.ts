import { noContent } from "@/lib/contracts/common";
import { identityProviderParams, identityProviderResponse, updateIdentityProviderBody } from "@/lib/contracts/identity-providers";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteIdentityProvider } from "@/lib/server/identity/delete-identity-provider";
import { readIdentityProvider } from "@/lib/server/identity/get-identity-provider";
import { updateIdentityProvider } from "@/lib/server/identity/update-identity-provider";

export const runtime = "nodejs";

// GET /api/identity/provider/(providerId): one provider, secrets as "********"
export const GET = route({ auth: "admin", params: identityProviderParams, response: identityProviderResponse }, ({ ctx, params }) => readIdentityProvider(ctx, params.providerId));

// PUT /api/identity/provider/(providerId): partial update; an omitted or "********" secret is kept
export const PUT = route({ auth: "admin", params: identityProviderParams, body: updateIdentityProviderBody, response: identityProviderResponse }, ({ ctx, params, body }) => updateIdentityProvider(ctx, params.providerId, body));

// DELETE /api/identity/provider/(providerId): its accounts and groups stay, as local ones
export const DELETE = route({ auth: "admin", params: identityProviderParams, response: noContent }, ({ ctx, params }) => deleteIdentityProvider(ctx, params.providerId));

export const { POST, PATCH } = otherMethods({ GET, PUT, DELETE });
