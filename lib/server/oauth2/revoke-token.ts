import "server-only";
import { and, eq } from "drizzle-orm";
import { oauth2Apps, oauth2Grants } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { revokeGrants } from "./app-access";

/**
 * DELETE /oauth2/app/(token)/revoke (administrators: any grant) and DELETE
 * /oauth2/user/(token)/revoke (the caller's own grants only; another user's is a 404, so handles
 * cannot be probed). The grant's access and refresh tokens stop at once. 204.
 */
export async function revokeToken(ctx: AuthedCtx, handle: string, scope: "any" | "own"): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const own = scope === "own" ? eq(oauth2Grants.userId, ctx.actor.user.id) : undefined;
    const [grant] = await tx
      .select({ id: oauth2Grants.id, userId: oauth2Grants.userId, app: oauth2Apps.name })
      .from(oauth2Grants)
      .innerJoin(oauth2Apps, eq(oauth2Apps.id, oauth2Grants.appId))
      .where(and(eq(oauth2Grants.handle, handle), own))
      .limit(1);
    if (!grant) throw new AppError("not_found", "Token not found");
    await revokeGrants(tx, [grant.id]);
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: "Revoked an OAuth2 authorisation", objectType: "oauth2_token", objectId: handle, object: grant.app });
  });
}
