import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users } from "@/db/schema";
import { generatePassword, hashPassword } from "../auth/passwords";
import { createPrivateSpace } from "../folders/create-private-space";

/**
 * At first start, creates the administrator from ADMIN_LOGIN / ADMIN_PASSWORD, or with a
 * generated password printed once.
 */
export async function ensureFirstAdmin(db: DbOrTx, log: (line: string) => void = console.log): Promise<void> {
  const [existing] = await db.select({ id: users.id }).from(users).where(and(eq(users.role, 3), isNull(users.deletedAt))).limit(1);
  if (existing) return;
  const login = process.env.ADMIN_LOGIN || "admin";
  const given = process.env.ADMIN_PASSWORD;
  const password = given || generatePassword();
  await db.transaction(async (tx) => {
    const [admin] = await tx
      .insert(users)
      .values({ login, passwordHash: await hashPassword(password), role: 3, firstname: "Administrator", email: process.env.ADMIN_EMAIL ?? "" })
      .returning();
    await createPrivateSpace(tx, admin.id);
  });
  if (given) log(`[coffre] created the first administrator "${login}" with ADMIN_PASSWORD`);
  else log(`[coffre] created the first administrator "${login}" with the password: ${password}  (shown once; change it)`);
}
