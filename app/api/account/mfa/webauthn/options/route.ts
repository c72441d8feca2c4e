import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { relyingParty } from "@/lib/server/mfa/relying-party";
import { webauthnRegistrationOptions } from "@/lib/server/mfa/webauthn-registration-options";

export const runtime = "nodejs";

// POST /api/account/mfa/webauthn/options: registration options for a new security key (challenge kept server-side)
export const POST = route({}, ({ ctx, req }) => webauthnRegistrationOptions(ctx, relyingParty(req.headers, req.url)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
