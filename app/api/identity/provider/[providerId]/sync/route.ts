import { identityProviderParams, syncIdentityProviderResponse } from "@/lib/contracts/identity-providers";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { syncIdentityProvider } from "@/lib/server/identity/sync-identity-provider";

export const runtime = "nodejs";

// POST /api/identity/provider/(providerId)/sync: queue the identity.sync job; 202 {job_id}
export const POST = route({ auth: "admin", params: identityProviderParams, response: { 202: syncIdentityProviderResponse } }, ({ ctx, params }) => syncIdentityProvider(ctx, params.providerId));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
