import { z } from "zod";
import { language, userFields, userResponse } from "./users";

/**
 * Re-authentication (api.md, "Account security"): the account's password or, for an account
 * without a local password (directory, SSO), a current code of its authenticator app. Sent beside
 * the fields of the change it confirms.
 */
export const reauthFields = {
  password: z.string().max(1024).optional(),
  code: z.string().max(64).optional(),
};
export const reauthBody = z.object(reauthFields);
export type ReauthInput = z.output<typeof reauthBody>;
/** What an account re-authenticates with; `sign_in`: nothing to ask, a sign-in of the last minutes stands for it. */
export const REAUTH_METHODS = ["password", "code", "sign_in"] as const;
export type ReauthMethod = (typeof REAUTH_METHODS)[number];

/** PUT /account: the contract's partial body; the password changes only with the old one, the email with `password` (or `code`). */
export const updateAccountBody = z
  .object({
    old_password: z.string().max(1024).optional(),
    new_password: z.string().min(1).max(1024).optional(),
    lastname: userFields.lastname,
    firstname: userFields.firstname,
    email: userFields.email,
    phone: userFields.phone,
    organization: userFields.organization,
    language: language.optional(),
    ...reauthFields,
  })
  .strip();
export type UpdateAccountInput = z.output<typeof updateAccountBody>;

/** GET and PUT /account: the User plus the language the interface should use now. */
export const accountResponse = userResponse.extend({ current_language: z.string() });

/** POST /reset_password: a login or an email address. */
export const requestPasswordResetBody = z.object({ login_or_email: z.string().trim().min(1).max(1024) });

/** POST /reset_password/(token): the new password. */
export const resetPasswordBody = z.object({ password: z.string().min(1).max(1024) });
export const resetTokenParams = z.object({ token: z.string().min(16).max(200).regex(/^[\w-]+$/) });
