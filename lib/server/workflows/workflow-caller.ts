import "server-only";
import type { Db } from "@/db";
import type { Ctx } from "../context";
import { authenticate } from "../http/route";

/**
 * `/workflow/instance/(x)` takes a validator's token (the link is the credential: no session is
 * read, so a stale cookie never gets in the way of a mailed link) or an instance id, which needs
 * a signed-in caller, authenticated here exactly as route() would.
 */
export async function callerFor(ctx: Ctx, req: Request, key: string | number): Promise<Ctx> {
  if (typeof key === "string") return { ...ctx, actor: null };
  return { ...ctx, actor: await authenticate(ctx.db as Db, req, "user") };
}
