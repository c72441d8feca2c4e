import "server-only";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { groupManagers, users } from "@/db/schema";
import type { createDelegateBody, DelegateResponse } from "@/lib/contracts/delegates";
import { displayName, writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getGroupOrThrow } from "../groups/get-group";
import { getLiveUserOrThrow } from "../users/user-access";
import { getDelegateOrThrow, serializeDelegate } from "./present-delegate";

type Input = z.output<typeof createDelegateBody>;

/**
 * POST /delegate (administrators): makes a user a manager of a group with the given scopes. The
 * manager role replaced delegates, so a user (role 2) is raised to manager (role 4); external
 * users cannot manage and administrators need no delegation (both 400).
 */
export async function createDelegate(ctx: AuthedCtx, input: Input): Promise<DelegateResponse> {
  return ctx.db.transaction(async (tx) => {
    const user = await getLiveUserOrThrow(tx, input.user_id, { lock: true });
    const group = await getGroupOrThrow(tx, input.group_id);
    if (user.role === 1 || user.role === 3) {
      const why = user.role === 1 ? "External users cannot be delegates" : "Administrators manage every group already";
      throw new AppError("invalid_request", why, [{ path: "user_id", message: why }]);
    }
    const [inserted] = await tx
      .insert(groupManagers)
      .values({ groupId: group.id, userId: user.id, manageUsers: input.users, manageSecurity: input.security, manageAlerts: input.alerts })
      .onConflictDoNothing()
      .returning({ id: groupManagers.id });
    if (!inserted) throw new AppError("conflict", "This user is already a delegate (manager) of this group");
    const promoted = user.role === 2;
    if (promoted) await tx.update(users).set({ role: 4 }).where(eq(users.id, user.id));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_INSERT",
      message: `Made ${displayName(user)} a delegate of group ${group.login}${promoted ? " (role raised to manager)" : ""}`,
      objectType: "group",
      objectId: group.id,
      object: group.login,
    });
    return serializeDelegate(await getDelegateOrThrow(tx, inserted.id));
  });
}
