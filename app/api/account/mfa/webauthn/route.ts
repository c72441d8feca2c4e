import { registeredWebauthnResponse, registerWebauthnBody } from "@/lib/contracts/mfa";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";
import { relyingParty } from "@/lib/server/mfa/relying-party";
import { registerWebauthn } from "@/lib/server/mfa/register-webauthn";

export const runtime = "nodejs";

// POST /api/account/mfa/webauthn: stores a security key {name, response} → 201 {id, name, creation}
export const POST = route({ body: registerWebauthnBody, response: { 201: registeredWebauthnResponse } }, async ({ ctx, body, req }) => created(await registerWebauthn(ctx, body, relyingParty(req.headers, req.url))));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
