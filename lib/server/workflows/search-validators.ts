import "server-only";
import { and, asc, isNull, ne, sql } from "drizzle-orm";
import { users } from "@/db/schema";
import type { ValidatorCandidate } from "@/lib/contracts/workflows";
import { displayName } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { matchesKeyword } from "../users/list-users";
import { firstAddress } from "./workflow-mails";

/**
 * GET /workflow/validators?search= (the "Start a validation" dialog): at most 10 live, active
 * accounts with an address whose login, name or address contains `search` (3 characters at
 * least, as for invitable users), as `{id, name, email}`. Unlike the invitable-users search, it
 * keeps people who already have access to the file: they are the usual validators. External
 * accounts (role 1) may not search the directory: they name validators by address.
 */
export async function searchValidators(ctx: AuthedCtx, search: string): Promise<ValidatorCandidate[]> {
  if (ctx.actor.user.role === 1) throw new AppError("forbidden", "External accounts cannot search the platform's users");
  const found = await ctx.db
    .select({ id: users.id, login: users.login, firstname: users.firstname, lastname: users.lastname, email: users.email })
    .from(users)
    .where(and(isNull(users.deletedAt), sql`${users.active}`, ne(users.email, ""), sql`(${users.expire} IS NULL OR ${users.expire} > now())`, matchesKeyword(search)))
    .orderBy(asc(sql`lower(${users.login})`), asc(users.id))
    .limit(10);
  return found.map((u) => ({ id: String(u.id), name: displayName(u), email: firstAddress(u.email) }));
}
