import "server-only";
import type { z } from "zod";
import type { DbOrTx } from "@/db";
import type { User } from "@/db/schema";
import type { accountResponse } from "@/lib/contracts/account";
import { presentUser } from "../users/serialize-user";
import { currentLanguage } from "./current-language";

/** The Account answer (GET and PUT /account): the user as presented, with the language the interface should use now (always present). */
export async function presentAccount(db: DbOrTx, user: User, acceptLanguage: string | null): Promise<z.input<typeof accountResponse>> {
  const language = currentLanguage(user.language, acceptLanguage);
  return { ...(await presentUser(db, user)), current_language: language };
}
