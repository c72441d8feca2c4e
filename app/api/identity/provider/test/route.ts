import { testIdentityProviderBody } from "@/lib/contracts/identity-providers";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { testIdentityProvider } from "@/lib/server/identity/test-identity-provider";

export const runtime = "nodejs";

// POST /api/identity/provider/test: test a configuration without saving it: true, or {result: false, details}
export const POST = route({ auth: "admin", body: testIdentityProviderBody }, ({ ctx, body }) => testIdentityProvider(ctx, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
