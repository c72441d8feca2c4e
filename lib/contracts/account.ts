import { z } from "zod";
import { language, userFields, userResponse } from "./users";

/** PUT /account: the contract's partial body; the password changes only with the old one. */
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
