import { z } from "zod";
import { isoDate } from "@/lib/contracts/common";
import { REAUTH_METHODS, reauthFields } from "./account";

/** How a sign-in's second step may be answered. `recovery` (a single-use code) is ours, beside api.md's three. */
export const MFA_METHODS = ["otp", "sms", "webauthn", "recovery"] as const;
export const mfaMethod = z.enum(MFA_METHODS);
export type MfaMethod = z.infer<typeof mfaMethod>;

/** A 6-digit code (TOTP or SMS); spaces a person typed are dropped. */
export const sixDigits = z
  .string()
  .max(32)
  .transform((v) => v.replace(/[\s-]/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "A code of 6 digits"));

/** The raw token of a sign-in waiting for its second step. */
export const mfaToken = z.string().min(16).max(200).regex(/^[\w-]+$/);

/** A WebAuthn response as @simplewebauthn/browser gives it; checked in depth by the server library. */
export const webauthnResponse = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal("public-key"),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().max(64).optional(),
  })
  .loose();

/** POST /auth/mfa (api.md): the second step of a sign-in. */
export const completeSignInBody = z
  .object({
    mfa_token: mfaToken,
    method: mfaMethod,
    code: z.string().max(64).optional(),
    response: webauthnResponse.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.method === "webauthn" && !body.response) ctx.addIssue({ code: "custom", path: ["response"], message: "A security key's response is required" });
    if (body.method !== "webauthn" && !body.code) ctx.addIssue({ code: "custom", path: ["code"], message: "A code is required" });
  });
export type CompleteSignInInput = z.output<typeof completeSignInBody>;

/** POST /auth/mfa/sms and POST /auth/mfa/webauthn/options: which sign-in the request is about. */
export const mfaTokenBody = z.object({ mfa_token: mfaToken });

/** The `details` of a 401 mfa_required answer. */
export const mfaRequiredDetails = z.object({
  methods: z.array(mfaMethod),
  mfa_token: z.string(),
  /** Where the SMS code goes, masked (only with the sms method). */
  phone: z.string().optional(),
});
export type MfaRequiredDetails = z.infer<typeof mfaRequiredDetails>;

export const webauthnCredentialResponse = z.object({ id: z.number().int(), name: z.string(), creation: isoDate, last_used: isoDate.nullable() });

/** GET /account/mfa (api.md `{otp, sms, webauthn}`, plus what the account page needs). */
export const mfaStateResponse = z.object({
  otp: z.boolean(),
  sms: z.boolean(),
  /** The enrolled number, masked. */
  sms_phone: z.string().nullable(),
  webauthn: z.array(webauthnCredentialResponse),
  recovery_codes_left: z.number().int(),
  /** What the platform offers (the User's can_mfa_* flags). */
  can: z.object({ otp: z.boolean(), sms: z.boolean(), webauthn: z.boolean() }),
  /** A second factor is demanded of this account (by an administrator or the platform). */
  required: z.boolean(),
  /** Demanded and none set up yet: everything but enrolment answers 401 mfa_enrollment_required. */
  enrollment_required: z.boolean(),
  /** What a change of factors asks for (api.md, "Account security"): the password, a code of the app, or a recent sign-in. */
  reauth: z.enum(REAUTH_METHODS),
});
export type MfaState = z.infer<typeof mfaStateResponse>;

/** POST /account/mfa/otp: the pending secret (RFC 6238, SHA-1, 6 digits, 30 s). */
export const otpSetupResponse = z.object({ secret: z.string(), otpauth_url: z.string() });

/** PUT /account/mfa/otp and /sms: enables with a code; recovery codes are shown once, when new. */
export const codeBody = z.object({ code: sixDigits });
export const enableResponse = mfaStateResponse.extend({ recovery_codes: z.array(z.string()).optional() });

/** POST /account/mfa/sms: the number that receives codes (international form), and the re-authentication. */
export const smsSetupBody = z.object({
  ...reauthFields,
  phone: z
    .string()
    .trim()
    .transform((v) => v.replace(/[\s().-]/g, ""))
    .pipe(z.string().regex(/^\+?[1-9]\d{5,14}$/, "A phone number in international form, for example +33612345678")),
});

/** POST /account/mfa/webauthn (api.md): names and stores a security key. */
export const registerWebauthnBody = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine((v) => !/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(v), "No control or bidirectional characters"),
  response: webauthnResponse,
});

export const webauthnParams = z.object({ credentialId: z.coerce.number().int().positive().max(2_147_483_647) });

/** POST /account/mfa/recovery: a new set of codes, replacing the old ones (shown once). */
export const recoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()) });

/** POST /account/mfa/sms and /auth/mfa/sms: where the code went, the number masked. */
export const codeSentResponse = z.object({ phone: z.string() });

/** POST /account/mfa/webauthn → 201: the stored key, with recovery codes when it is the first factor. */
export const registeredWebauthnResponse = webauthnCredentialResponse.extend({ recovery_codes: z.array(z.string()).optional() });

/** WebAuthn options as @simplewebauthn/server writes them (their JSON form), for the browser library: the registration's (POST /account/mfa/webauthn/options)… */
export const webauthnCreationOptionsResponse = z.object({
  challenge: z.string().min(1),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ type: z.literal("public-key"), alg: z.number().int() })).min(1),
  timeout: z.number().int().optional(),
  excludeCredentials: z.array(z.object({ id: z.string(), type: z.string() })).optional(),
});
/** …and the sign-in's (POST /auth/mfa/webauthn/options). */
export const webauthnRequestOptionsResponse = z.object({
  challenge: z.string().min(1),
  rpId: z.string().optional(),
  timeout: z.number().int().optional(),
  allowCredentials: z.array(z.object({ id: z.string(), type: z.string() })).optional(),
});

/** POST /auth and /auth/mfa: the session's token. */
export const signInTokenResponse = z.object({ token: z.string().min(1) });
