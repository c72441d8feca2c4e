import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { users, type User } from "@/db/schema";
import type { UpdateAccountInput } from "@/lib/contracts/account";
import { writeLog } from "../audit/write-log";
import { assertStrongPassword, hashPassword } from "../auth/passwords";
import { confirmCurrentPassword, reauthenticate } from "../auth/reauthenticate";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError, forbidden, notFound } from "../errors";
import { endAccessAfterPasswordChange } from "./end-access-after-password-change";
import { presentAccount } from "./present-account";

const PROFILE_FIELDS = ["lastname", "firstname", "email", "phone", "organization"] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];

/**
 * PUT /account: the caller changes their own details, language and password. When an
 * administrator turned can_edit_options off, the profile fields are refused but the language
 * and the password may still change (neither is information about the person). External
 * directory accounts change nothing here: the directory owns them. Changing one's own
 * organization never joins a group (organization_groups): an existing group of that name
 * would hand over its rights; administrators' updates of the user apply that option. A new
 * email re-authenticates (`password`, or `code` without a local password; api.md, "Account
 * security"): a stolen session must not redirect the reset mails and then reset the password.
 */
export async function updateAccount(ctx: AuthedCtx, input: UpdateAccountInput, acceptLanguage: string | null) {
  const user = ctx.actor.user;
  if (user.ldap) {
    // The directory owns these fields (and the password); the request names the ones it tried.
    const fields = Object.keys(input).filter((k) => input[k as keyof UpdateAccountInput] !== undefined && k !== "old_password");
    throw new AppError("forbidden", "Unavailable for external-directory accounts", { fields });
  }

  // Fields sent back unchanged (a form posting everything) are not changes.
  const profile: Partial<Pick<User, ProfileField>> = {};
  for (const field of PROFILE_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== user[field]) profile[field] = value;
  }
  const changed: string[] = Object.keys(profile);
  if (changed.length && !user.canEditOptions) {
    throw forbidden("Your administrator does not allow you to change your account details");
  }
  const language = input.language !== undefined && input.language !== user.language ? input.language : undefined;
  if (language) changed.push("language");
  const passwordHash = input.new_password === undefined ? undefined : await checkPasswordChange(ctx, input.old_password, input.new_password);
  // The old password of a password change has just re-authenticated the person.
  if (profile.email !== undefined && passwordHash === undefined) await reauthenticate(ctx, input);

  if (changed.length === 0 && !passwordHash) return presentAccount(ctx.db, user, acceptLanguage);

  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ ...profile, ...(language ? { language } : {}), ...(passwordHash ? { passwordHash } : {}) })
      .where(and(eq(users.id, user.id), isNull(users.deletedAt)))
      .returning();
    if (!row) throw notFound("User");
    const who = { actor: user, request: ctx.request };
    if (passwordHash) {
      // Whoever knew the old one is signed out, their applications too; this session stays.
      await endAccessAfterPasswordChange(tx, row, { by: "self", keepSessionId: ctx.actor.sessionId });
      await writeLog(tx, who, { type: "ADMLLOG_PASSWORD", message: "Changed the account password; other sessions and OAuth2 grants ended", objectType: "user", objectId: user.id, object: user.login });
    }
    if (changed.length) {
      await writeLog(tx, who, { type: "ADMLLOG_UPDATE", message: `Updated the account: ${changed.join(", ")}`, objectType: "user", objectId: user.id, object: user.login });
    }
    return row;
  });
  return presentAccount(ctx.db, updated, acceptLanguage);
}

/** The old password must be right: the re-authentication's throttled check, so a stolen token cannot guess it. */
async function checkPasswordChange(ctx: AuthedCtx, oldPassword: string | undefined, newPassword: string): Promise<string> {
  if (!oldPassword) throw new AppError("forbidden", "Give your current password (old_password) to change it");
  await confirmCurrentPassword(ctx, ctx.actor.user, oldPassword).catch((error: unknown) => {
    throw error instanceof AppError && error.code === "forbidden" ? new AppError("forbidden", "The current password (old_password) is wrong", error.details) : error;
  });
  const config = await getPlatformConfig(ctx.db);
  assertStrongPassword(newPassword, config.password_min_length);
  return hashPassword(newPassword);
}
