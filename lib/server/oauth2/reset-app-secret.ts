import "server-only";
import { eq } from "drizzle-orm";
import { oauth2Apps } from "@/db/schema";
import type { AppResponse } from "@/lib/contracts/oauth2";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getAppOrThrow, hashSecret, newClientSecret, revokeAppGrants } from "./app-access";
import { presentApp } from "./present-apps";

/**
 * POST /oauth2/app/(clientId)/reset: a new secret, shown this once; every token of the
 * application (access, refresh, pending codes' grants) ends at once (contract).
 */
export async function resetAppSecret(ctx: AuthedCtx, clientId: string): Promise<AppResponse> {
  const secret = newClientSecret();
  const app = await ctx.db.transaction(async (tx) => {
    const current = await getAppOrThrow(tx, clientId);
    await revokeAppGrants(tx, current.id);
    const [row] = await tx.update(oauth2Apps).set({ secretHash: hashSecret(secret), updatedAt: new Date() }).where(eq(oauth2Apps.id, current.id)).returning();
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: "Reset the secret of an OAuth2 application", objectType: "oauth2_app", objectId: row.clientId, object: row.name });
    return row;
  });
  return { ...(await presentApp(ctx.db, app)), client_secret: secret };
}
