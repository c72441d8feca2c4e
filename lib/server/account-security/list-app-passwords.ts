import "server-only";
import { count, desc } from "drizzle-orm";
import { sessions } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { appPasswordRows } from "./app-passwords";
import { presentAppPassword } from "./present-sessions";

/** GET /account/app_passwords: names and dates, never the password. */
export async function listAppPasswords(ctx: AuthedCtx, page: { offset: number; limit: number }) {
  const where = appPasswordRows(ctx.actor.user.id);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(sessions).where(where).orderBy(desc(sessions.createdAt), desc(sessions.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(sessions).where(where),
  ]);
  return envelope(rows.map(presentAppPassword), page.offset, total);
}
