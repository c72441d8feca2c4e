import "server-only";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "@/db";
import { users, type User } from "@/db/schema";
import type { updateUserBody } from "@/lib/contracts/users";
import { endAccessAfterPasswordChange } from "../account/end-access-after-password-change";
import { displayName, writeLog } from "../audit/write-log";
import { assertStrongPassword, hashPassword } from "../auth/passwords";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError, forbidden } from "../errors";
import { createPrivateSpace } from "../folders/create-private-space";
import { assertManagerMayJoinOrganization, joinOrganizationGroup } from "../groups/organization-group";
import { queueMail } from "../mail/queue-mail";
import { mailTemplate, renderMail } from "../mail/render-mail";
import { revokeUserSessions } from "./revoke-user-sessions";
import { presentUser } from "./serialize-user";
import { assertAnotherActiveAdmin, getAdministeredUserOrThrow, isActiveAdmin } from "./user-access";
import { applyGroupChange, planGroupChange } from "./user-groups";

type Input = z.output<typeof updateUserBody>;

/** Sent with `alert` when an administrator or manager sets a new password. */
export const PASSWORD_CHANGED_MAIL = mailTemplate("passwordChanged");

// Contract field → column. `password` and `groups` are handled apart.
const FIELDS = {
  login: "login",
  firstname: "firstname",
  lastname: "lastname",
  email: "email",
  organization: "organization",
  phone: "phone",
  active: "active",
  language: "language",
  quota: "quota",
  expire: "expire",
  can_edit_options: "canEditOptions",
  role: "role",
  mfa_required: "mfaRequired",
} as const satisfies Record<string, keyof User>;

/**
 * PUT /user/(userId): a partial update by an administrator, or by a manager on the externals and
 * users of the groups they manage. Fields sent with their current value are no change, so a
 * client may send back the User it read (which matters for directory accounts).
 */
export async function updateUser(ctx: AuthedCtx, userId: number, input: Input, options: { alert: boolean }) {
  const actor = ctx.actor.user;
  const config = await getPlatformConfig(ctx.db);

  const updated = await ctx.db.transaction(async (tx) => {
    const { target, managed } = await getAdministeredUserOrThrow(tx, actor, userId);
    const { set, names } = changedColumns(target, input);
    const password = input.password;
    const passwordChanged = password !== undefined;

    // Second factors are Coffre's, not the directory's: mfa_required may change on any account.
    if (target.ldap && (names.some((n) => n !== "mfa_required") || passwordChanged)) {
      const refused = [...names.filter((n) => n !== "mfa_required"), ...(passwordChanged ? ["password"] : [])];
      throw new AppError("forbidden", `This account comes from an external directory: only its groups may change (refused: ${refused.join(", ")})`, { fields: refused });
    }
    if (managed && set.mfaRequired !== undefined) throw forbidden("Only administrators demand a second factor");
    if (managed && set.role !== undefined && set.role !== 1 && set.role !== 2) {
      throw forbidden("Managers may only give the roles external user and user");
    }
    const groupChange = await planGroupChange(tx, target.id, input.groups, managed);
    const organization = set.organization?.trim();
    if (managed && organization && config.organization_groups) await assertManagerMayJoinOrganization(tx, managed, organization);
    if (isActiveAdmin(target) && !isActiveAdmin({ ...target, ...set })) await assertAnotherActiveAdmin(tx, target.id);
    if (set.login !== undefined) await assertLoginFree(tx, set.login, target.id);
    if (passwordChanged) {
      assertStrongPassword(password, config.password_min_length);
      set.passwordHash = await hashPassword(password);
    }

    const [row] = Object.keys(set).length ? await tx.update(users).set(set).where(eq(users.id, target.id)).returning() : [target];
    await applyGroupChange(tx, target.id, groupChange);
    if (set.role !== undefined && row.role !== 1 && !row.privateRootId) row.privateRootId = await createPrivateSpace(tx, row.id);
    if (organization && config.organization_groups) await joinOrganizationGroup(tx, row.id, organization);
    const alerted = options.alert && passwordChanged && Boolean(row.email);
    if (passwordChanged) {
      // An administrator's change of their own password keeps the session they made it from.
      const by = row.id === ctx.actor.realUser.id ? "self" : "admin";
      await endAccessAfterPasswordChange(tx, row, { by, keepSessionId: ctx.actor.sessionId, notify: !alerted });
    } else if (set.active === false) await revokeUserSessions(tx, row.id);

    if (alerted) {
      const mail = renderMail(PASSWORD_CHANGED_MAIL, { recipient: displayName(row), platform: config.platform_name, login: row.login, password }, { language: row.language });
      await queueMail(tx, { to: row.email, ownerId: actor.id, sensitive: true, subject: mail.subject, text: mail.text, html: mail.html });
    }
    const changed = [...names, ...(passwordChanged ? ["password"] : []), ...(groupChange.added.length + groupChange.removed.length ? ["groups"] : [])];
    if (changed.length) {
      await writeLog(tx, { actor, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Updated user ${row.login}: ${changed.join(", ")}`, objectType: "user", objectId: row.id, object: row.login });
    }
    return row;
  });
  return presentUser(ctx.db, updated);
}

type UserChanges = Partial<typeof users.$inferInsert>;

function changedColumns(target: User, input: Input): { set: UserChanges; names: string[] } {
  const set: Record<string, unknown> = {};
  const names: string[] = [];
  for (const [field, column] of Object.entries(FIELDS)) {
    const value = input[field as keyof typeof FIELDS];
    if (value === undefined || sameValue(target[column], value)) continue;
    set[column] = value;
    names.push(field);
  }
  return { set: set as UserChanges, names };
}

function sameValue(current: unknown, next: unknown): boolean {
  if (current instanceof Date || next instanceof Date) {
    const time = (v: unknown) => (v instanceof Date ? v.getTime() : null);
    return time(current) === time(next);
  }
  return current === next;
}

async function assertLoginFree(tx: Tx, login: string, userId: number) {
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.login}) = lower(${login})`, isNull(users.deletedAt), ne(users.id, userId)))
    .limit(1);
  if (taken) throw new AppError("conflict", `The login "${login}" is already used`);
}
