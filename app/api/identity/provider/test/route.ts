import { testIdentityProviderBody, testIdentityProviderQuery, testIdentityProviderResponse } from "@/lib/contracts/identity-providers";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { testAnswer } from "@/lib/server/identity/test-answer";
import { testIdentityProvider } from "@/lib/server/identity/test-identity-provider";

export const runtime = "nodejs";

// POST /api/identity/provider/test: test a configuration without saving it: true or false (the reason in X-Coffre-Test-Reason), the outcome as an object with ?details=1
export const POST = route({ auth: "admin", query: testIdentityProviderQuery, body: testIdentityProviderBody, response: testIdentityProviderResponse }, async ({ ctx, query, body }) =>
  testAnswer(await testIdentityProvider(ctx, body), query.details),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
