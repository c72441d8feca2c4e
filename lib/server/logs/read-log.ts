import "server-only";
import { eq } from "drizzle-orm";
import { logs } from "@/db/schema";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden, notFound } from "../errors";
import { serializeLog } from "./serialize-log";

/** GET /log/(id): one audit-log entry, for administrators. */
export async function readLog(ctx: AuthedCtx, logId: number) {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const [row] = await ctx.db.select().from(logs).where(eq(logs.id, logId)).limit(1);
  if (!row) throw notFound("Log entry");
  return serializeLog(row);
}
