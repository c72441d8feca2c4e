import "server-only";
import { eq } from "drizzle-orm";
import { oauth2Apps } from "@/db/schema";
import type { AppResponse, UpdateAppInput } from "@/lib/contracts/oauth2";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { getAppOrThrow } from "./app-access";
import { presentApp } from "./present-apps";

/**
 * PUT /oauth2/app/(clientId): partial. Tokens already issued keep the scopes they were granted
 * (a narrower registration applies to the next authorisation; reset the secret to end them now).
 */
export async function updateApp(ctx: AuthedCtx, clientId: string, input: UpdateAppInput): Promise<AppResponse> {
  const app = await ctx.db.transaction(async (tx) => {
    const current = await getAppOrThrow(tx, clientId);
    const type = input.type ?? current.type;
    const callbacks = input.callbacks_uris ?? current.callbackUris;
    if (type === 0 && callbacks.length === 0) {
      throw new AppError("invalid_request", "A type 0 application needs at least one callback URI", [{ path: "callbacks_uris", message: "at least one callback URI" }]);
    }
    const [row] = await tx
      .update(oauth2Apps)
      .set({
        name: input.name ?? current.name,
        description: input.description === undefined ? current.description : input.description,
        editor: input.editor === undefined ? current.editor : input.editor,
        editorUrl: input.editor_url === undefined ? current.editorUrl : input.editor_url,
        type,
        kind: input.kind ?? current.kind,
        scope: input.scope ?? current.scope,
        callbackUris: callbacks,
        updatedAt: new Date(),
      })
      .where(eq(oauth2Apps.id, current.id))
      .returning();
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: "Updated an OAuth2 application", objectType: "oauth2_app", objectId: row.clientId, object: row.name });
    return row;
  });
  return presentApp(ctx.db, app);
}
