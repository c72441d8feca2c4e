import "server-only";
import { inArray } from "drizzle-orm";
import type { z } from "zod";
import { groupMembers, groups, users } from "@/db/schema";
import type { createUserBody } from "@/lib/contracts/users";
import { displayName, writeLog } from "../audit/write-log";
import { assertStrongPassword, hashPassword } from "../auth/passwords";
import { getPlatformConfig } from "../config/platform-config";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { createPrivateSpace } from "../folders/create-private-space";
import { assertManagerMayJoinOrganization, joinOrganizationGroup } from "../groups/organization-group";
import { queueMail } from "../mail/queue-mail";
import { mailTemplate, renderMail } from "../mail/render-mail";
import { groupIdsManagedBy } from "./managed-users";
import { presentUser } from "./serialize-user";

type Input = z.output<typeof createUserBody>;

/** Sent with `alert`: the new account's login and password. */
export const ACCOUNT_CREATED_MAIL = mailTemplate("accountCreated");

/**
 * POST /user. Administrators create any role; managers create externals and users inside the
 * groups they manage (all of them when no group is given).
 */
export async function createUser(ctx: AuthedCtx, input: Input, options: { alert: boolean }) {
  const actor = ctx.actor.user;
  const role = input.role ?? 1;
  let groupIds = [...new Set(input.groups ?? [])];
  let managed: number[] = [];
  if (actor.role === 4) {
    managed = await groupIdsManagedBy(ctx.db, actor.id);
    if (managed.length === 0) throw new AppError("forbidden", "You manage no group");
    if (role === 3 || role === 4) throw new AppError("forbidden", "Managers may only create external users and users");
    if (groupIds.length === 0) groupIds = managed;
    if (groupIds.some((g) => !managed.includes(g))) throw new AppError("forbidden", "You may only add users to the groups you manage");
  } else if (actor.role !== 3) {
    throw new AppError("forbidden", "Only administrators and managers create users");
  }
  const config = await getPlatformConfig(ctx.db);
  if (actor.role === 4 && config.organization_groups && input.organization) await assertManagerMayJoinOrganization(ctx.db, managed, input.organization);
  assertStrongPassword(input.password, config.password_min_length);
  const passwordHash = await hashPassword(input.password);

  const user = await ctx.db.transaction(async (tx) => {
    if (groupIds.length) {
      const found = await tx.select({ id: groups.id, login: groups.login, ldap: groups.ldap }).from(groups).where(inArray(groups.id, groupIds));
      if (found.length !== groupIds.length) throw new AppError("not_found", "A group in `groups` does not exist");
      // Only groups named in the request: a manager's default (all the groups they manage) stays as it was.
      const directory = found.find((g) => g.ldap && input.groups?.includes(g.id));
      if (directory) throw new AppError("forbidden", `The members of "${directory.login}" come from the external directory`);
    }
    const [created] = await tx
      .insert(users)
      .values({
        login: input.login,
        passwordHash,
        firstname: input.firstname ?? "",
        lastname: input.lastname ?? "",
        email: input.email ?? "",
        organization: input.organization ?? "",
        phone: input.phone ?? "",
        active: input.active ?? true,
        language: input.language ?? "auto",
        quota: input.quota ?? null,
        expire: input.expire ?? null,
        role,
        canEditOptions: input.can_edit_options ?? true,
      })
      .returning();
    if (role !== 1) created.privateRootId = await createPrivateSpace(tx, created.id);
    if (groupIds.length) await tx.insert(groupMembers).values(groupIds.map((groupId) => ({ groupId, userId: created.id })));
    if (config.organization_groups && created.organization) await joinOrganizationGroup(tx, created.id, created.organization);
    if (options.alert && created.email) {
      const mail = renderMail(ACCOUNT_CREATED_MAIL, { recipient: displayName(created), platform: config.platform_name, login: created.login, password: input.password }, { language: created.language });
      await queueMail(tx, { to: created.email, ownerId: actor.id, sensitive: true, subject: mail.subject, text: mail.text, html: mail.html });
    }
    await writeLog(tx, { actor, request: ctx.request }, { type: "ADMLLOG_INSERT", message: `Created user ${created.login}`, objectType: "user", objectId: created.id, object: created.login });
    return created;
  });
  return presentUser(ctx.db, user);
}
