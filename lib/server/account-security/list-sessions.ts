import "server-only";
import { count, desc, eq } from "drizzle-orm";
import { sessions } from "@/db/schema";
import type { AuthedCtx } from "../context";
import { envelope } from "../present/envelope";
import { presentSession } from "./present-sessions";

/**
 * GET /account/sessions (api.md, "Account security"): every way into the account, most recently
 * used first: web and API sign-ins, OAuth2 access tokens, app passwords and the sessions opened with them.
 */
export async function listSessions(ctx: AuthedCtx, page: { offset: number; limit: number }) {
  const where = eq(sessions.userId, ctx.actor.user.id);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(sessions).where(where).orderBy(desc(sessions.lastUsedAt), desc(sessions.id)).offset(page.offset).limit(page.limit),
    ctx.db.select({ total: count() }).from(sessions).where(where),
  ]);
  return envelope(
    rows.map((row) => presentSession(row, ctx.actor.sessionId)),
    page.offset,
    total,
  );
}
