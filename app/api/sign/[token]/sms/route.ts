import { codeSentResponse, signTokenParams } from "@/lib/contracts/signatures";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { sendSigningCode } from "@/lib/server/signatures/signing-code";

export const runtime = "nodejs";

// POST /api/sign/(token)/sms (no account): a one-time code by SMS (or by mail without a phone), once a minute
export const POST = route({ auth: "none", params: signTokenParams, response: codeSentResponse }, ({ ctx, params }) => sendSigningCode(ctx, params.token));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
