import { webauthnCreationOptionsResponse } from "@/lib/contracts/mfa";
import { reauthBody } from "@/lib/contracts/account";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { relyingParty } from "@/lib/server/mfa/relying-party";
import { webauthnRegistrationOptions } from "@/lib/server/mfa/webauthn-registration-options";

export const runtime = "nodejs";

// POST /api/account/mfa/webauthn/options: registration options for a new security key (challenge kept server-side), re-authenticated {password} or {code}
export const POST = route({ body: reauthBody, response: webauthnCreationOptionsResponse }, ({ ctx, req, body }) => webauthnRegistrationOptions(ctx, relyingParty(req.headers, req.url), body));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
