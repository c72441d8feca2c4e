import "server-only";
import { and, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { sessions } from "@/db/schema";

/**
 * Ends every session of a user (a changed password or a closed account must not stay signed in
 * elsewhere). `keepSessionId` spares the caller's own session when they change their own password.
 */
export async function revokeUserSessions(db: DbOrTx, userId: number, keepSessionId: number | null = null) {
  const where = keepSessionId === null ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId));
  await db.delete(sessions).where(where);
}
