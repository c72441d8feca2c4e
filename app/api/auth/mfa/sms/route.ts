import { codeSentResponse, mfaTokenBody } from "@/lib/contracts/mfa";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { sendSignInCode } from "@/lib/server/mfa/send-sign-in-code";

export const runtime = "nodejs";

// POST /api/auth/mfa/sms: texts the code for a sign-in waiting for its second step → {phone} (masked)
export const POST = route({ auth: "none", body: mfaTokenBody, response: codeSentResponse }, ({ ctx, body }) => sendSignInCode(ctx, body.mfa_token));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
