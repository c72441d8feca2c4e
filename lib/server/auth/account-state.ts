import "server-only";
import type { User } from "@/db/schema";

export type RefusalReason = "deleted" | "inactive" | "expired";

const MESSAGES: Record<RefusalReason, string> = {
  deleted: "This account no longer exists",
  inactive: "This account is inactive",
  expired: "This account has expired",
};

/** Why an account may not be used now (a code clients can branch on), or null when it may. */
export function refusalReason(user: Pick<User, "active" | "expire" | "deletedAt">): RefusalReason | null {
  if (user.deletedAt) return "deleted";
  if (!user.active) return "inactive";
  if (user.expire && user.expire.getTime() <= Date.now()) return "expired";
  return null;
}

/** Why an account may not be used now, in words, or null when it may. */
export function accountRefusal(user: Pick<User, "active" | "expire" | "deletedAt">): string | null {
  const reason = refusalReason(user);
  return reason && MESSAGES[reason];
}

/** The contract shows an expired account as inactive. */
export const isActiveNow = (user: Pick<User, "active" | "expire">) =>
  user.active && !(user.expire && user.expire.getTime() <= Date.now());
