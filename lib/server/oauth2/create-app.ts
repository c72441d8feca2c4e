import "server-only";
import { oauth2Apps } from "@/db/schema";
import type { AppResponse, CreateAppInput } from "@/lib/contracts/oauth2";
import { writeLog } from "../audit/write-log";
import { newToken } from "../auth/tokens";
import type { AuthedCtx } from "../context";
import { hashSecret, newClientSecret } from "./app-access";
import { presentApp } from "./present-apps";

/**
 * POST /oauth2/app (api.md, "OAuth2"), administrators (route): 201 with `client_id` and the
 * `client_secret`, shown this once. A type 1 application will act as its creator.
 */
export async function createApp(ctx: AuthedCtx, input: CreateAppInput): Promise<AppResponse> {
  const secret = newClientSecret();
  const app = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(oauth2Apps)
      .values({
        clientId: newToken(18),
        secretHash: hashSecret(secret),
        name: input.name,
        description: input.description ?? null,
        editor: input.editor ?? null,
        editorUrl: input.editor_url ?? null,
        type: input.type,
        kind: input.kind ?? "web",
        scope: input.scope,
        callbackUris: input.callbacks_uris,
        createdBy: ctx.actor.user.id,
      })
      .returning();
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_INSERT", message: "Created an OAuth2 application", objectType: "oauth2_app", objectId: row.clientId, object: row.name });
    return row;
  });
  return { ...(await presentApp(ctx.db, app)), client_secret: secret };
}
