import { reauthBody } from "@/lib/contracts/account";
import { codeBody, codeSentResponse, enableResponse, mfaStateResponse, smsSetupBody } from "@/lib/contracts/mfa";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { disableSms } from "@/lib/server/mfa/disable-sms";
import { enableSms } from "@/lib/server/mfa/enable-sms";
import { startSms } from "@/lib/server/mfa/start-sms";

export const runtime = "nodejs";

// POST /api/account/mfa/sms: texts a code to {phone}, re-authenticated {password} or {code} → {phone} (masked)
export const POST = route({ body: smsSetupBody, response: codeSentResponse }, ({ ctx, body }) => startSms(ctx, body.phone, body));

// PUT /api/account/mfa/sms: enables it with the code received {code} → the state (+ recovery_codes once)
export const PUT = route({ body: codeBody, response: enableResponse }, ({ ctx, body }) => enableSms(ctx, body.code));

// DELETE /api/account/mfa/sms: removes the phone, re-authenticated {password} (or {code} without a local password)
export const DELETE = route({ body: reauthBody, response: mfaStateResponse }, ({ ctx, body }) => disableSms(ctx, body));

export const { GET, PATCH } = otherMethods({ POST, PUT, DELETE });
