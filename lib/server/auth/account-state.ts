import type { User } from "@/db/schema";

/** Why an account may not be used now, or null when it may. */
export function accountRefusal(user: Pick<User, "active" | "expire" | "deletedAt">): string | null {
  if (user.deletedAt) return "This account no longer exists";
  if (!user.active) return "This account is inactive";
  if (user.expire && user.expire.getTime() <= Date.now()) return "This account has expired";
  return null;
}

/** The contract shows an expired account as inactive. */
export const isActiveNow = (user: Pick<User, "active" | "expire">) =>
  user.active && !(user.expire && user.expire.getTime() <= Date.now());
