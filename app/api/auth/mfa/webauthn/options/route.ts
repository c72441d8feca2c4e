import { mfaTokenBody, webauthnRequestOptionsResponse } from "@/lib/contracts/mfa";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { relyingParty } from "@/lib/server/mfa/relying-party";
import { signInWebauthnOptions } from "@/lib/server/mfa/sign-in-webauthn-options";

export const runtime = "nodejs";

// POST /api/auth/mfa/webauthn/options: options for navigator.credentials.get for a sign-in's second step
export const POST = route({ auth: "none", body: mfaTokenBody, response: webauthnRequestOptionsResponse }, ({ ctx, body, req }) => signInWebauthnOptions(ctx, body.mfa_token, relyingParty(req.headers, req.url)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
