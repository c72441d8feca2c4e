import { mfaStateResponse } from "@/lib/contracts/mfa";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readMfa } from "@/lib/server/mfa/read-mfa";

export const runtime = "nodejs";

// GET /api/account/mfa: the caller's second factors {otp, sms, webauthn: [{id, name, creation}], ...} (api.md)
export const GET = route({ response: mfaStateResponse }, ({ ctx }) => readMfa(ctx));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
