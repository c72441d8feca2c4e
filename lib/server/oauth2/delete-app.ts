import "server-only";
import { eq } from "drizzle-orm";
import { oauth2Apps } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getAppOrThrow, revokeAppGrants } from "./app-access";

/** DELETE /oauth2/app/(clientId): its tokens stop at once (contract: delete invalidates its tokens). 204. */
export async function deleteApp(ctx: AuthedCtx, clientId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const app = await getAppOrThrow(tx, clientId);
    await revokeAppGrants(tx, app.id);
    await tx.delete(oauth2Apps).where(eq(oauth2Apps.id, app.id));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_DELETE", message: "Deleted an OAuth2 application", objectType: "oauth2_app", objectId: app.clientId, object: app.name });
  });
}
