import { completeSignInBody, signInTokenResponse } from "@/lib/contracts/mfa";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { completeSignIn } from "@/lib/server/mfa/complete-sign-in";
import { relyingParty } from "@/lib/server/mfa/relying-party";

export const runtime = "nodejs";

// POST /api/auth/mfa: the second step of a sign-in (api.md) {mfa_token, method, code?, response?} → {token}
export const POST = route({ auth: "none", body: completeSignInBody, response: signInTokenResponse }, async ({ ctx, body, req }) => {
  const rp = body.method === "webauthn" ? relyingParty(req.headers, req.url) : null;
  const { token } = await completeSignIn(ctx, body, { kind: "api", rp });
  return { token };
});

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
