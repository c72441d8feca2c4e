import "server-only";
import type { AppResponse } from "@/lib/contracts/oauth2";
import type { AuthedCtx } from "../context";
import { getAppOrThrow } from "./app-access";
import { presentApp } from "./present-apps";

/** GET /oauth2/app/(clientId): never the secret. */
export async function readApp(ctx: AuthedCtx, clientId: string): Promise<AppResponse> {
  return presentApp(ctx.db, await getAppOrThrow(ctx.db, clientId));
}
