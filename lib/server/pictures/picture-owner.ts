import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { users, type User } from "@/db/schema";
import { managesUser } from "../users/managed-users";
import type { AuthedCtx } from "../context";
import { forbidden, notFound } from "../errors";

/**
 * The live user whose picture is read or changed. Any signed-in user sees pictures; changing
 * one is for its owner (unless an administrator turned can_edit_options off), administrators,
 * and managers for the users of the groups they manage (never an administrator's).
 */
export async function getPictureOwnerOrThrow(ctx: AuthedCtx, userId: number, access: "read" | "write"): Promise<User> {
  const actor = ctx.actor.user;
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (!user) throw notFound("User");
  if (access === "read") return user;
  if (actor.role === 3) return user;
  if (actor.id === user.id) {
    if (!user.canEditOptions) throw forbidden("Your administrator does not allow you to change your account details");
    return user;
  }
  if (actor.role === 4 && user.role !== 3 && (await managesUser(ctx.db, actor.id, user.id))) return user;
  throw forbidden("You may not change this user's picture");
}
