import { reauthBody } from "@/lib/contracts/account";
import { codeBody, enableResponse, mfaStateResponse, otpSetupResponse } from "@/lib/contracts/mfa";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { disableOtp } from "@/lib/server/mfa/disable-otp";
import { enableOtp } from "@/lib/server/mfa/enable-otp";
import { startOtp } from "@/lib/server/mfa/start-otp";

export const runtime = "nodejs";

// POST /api/account/mfa/otp: a pending TOTP secret, re-authenticated {password} or {code} → {secret, otpauth_url}
export const POST = route({ body: reauthBody, response: otpSetupResponse }, ({ ctx, body }) => startOtp(ctx, body));

// PUT /api/account/mfa/otp: enables it with a first code {code} → the state (+ recovery_codes once)
export const PUT = route({ body: codeBody, response: enableResponse }, ({ ctx, body }) => enableOtp(ctx, body.code));

// DELETE /api/account/mfa/otp: removes it, re-authenticated {password} (or {code} without a local password)
export const DELETE = route({ body: reauthBody, response: mfaStateResponse }, ({ ctx, body }) => disableOtp(ctx, body));

export const { GET, PATCH } = otherMethods({ POST, PUT, DELETE });
