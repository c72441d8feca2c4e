import "server-only";
import { and, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db";
import { users, type User } from "@/db/schema";
import { isActiveNow } from "../auth/account-state";
import { AppError, forbidden, notFound } from "../errors";
import { groupIdsManagedBy, managesUser } from "./managed-users";

/** A user who is not deleted, or a 404. `lock` takes the row for the rest of the transaction. */
export async function getLiveUserOrThrow(db: DbOrTx, userId: number, options: { lock?: boolean } = {}): Promise<User> {
  const query = db.select().from(users).where(and(eq(users.id, userId), isNull(users.deletedAt))).limit(1);
  const [user] = options.lock ? await query.for("update") : await query;
  if (!user) throw notFound("User");
  return user;
}

/**
 * The user an administrator or a manager changes or deletes. Administrators reach anyone;
 * managers reach the externals and users of the groups they manage (never administrators or
 * other managers: changing their password would hand over more than the manager holds).
 * Everyone else gets a 403 before any lookup, so the answer never reveals whether an id exists.
 * `managed` is null for administrators, else the ids of the groups the manager manages.
 */
export async function getAdministeredUserOrThrow(tx: Tx, actor: User, userId: number): Promise<{ target: User; managed: number[] | null }> {
  if (actor.role === 3) return { target: await getLiveUserOrThrow(tx, userId, { lock: true }), managed: null };
  if (actor.role !== 4) throw forbidden("Only administrators and managers administer accounts");
  if (!(await managesUser(tx, actor.id, userId))) throw forbidden("You may only administer the users of the groups you manage");
  const target = await getLiveUserOrThrow(tx, userId, { lock: true });
  if (target.role === 3 || target.role === 4) throw forbidden("Managers may only administer external users and users");
  return { target, managed: await groupIdsManagedBy(tx, actor.id) };
}

export const isActiveAdmin = (user: Pick<User, "role" | "active" | "expire" | "deletedAt">) =>
  user.role === 3 && !user.deletedAt && isActiveNow(user);

/**
 * Refuses a change that would leave the platform without an active administrator. The lock
 * serialises such changes, so two administrators demoting each other at once cannot both win.
 */
export async function assertAnotherActiveAdmin(tx: Tx, userId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('coffre.last-active-admin'))`);
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 3), eq(users.active, true), isNull(users.deletedAt), or(isNull(users.expire), gt(users.expire, sql`now()`)), ne(users.id, userId)))
    .limit(1);
  if (!other) {
    throw new AppError("forbidden", "This is the last active administrator: promote another administrator before removing the role, deactivating or deleting this account");
  }
}
