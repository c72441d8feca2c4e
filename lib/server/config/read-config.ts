import "server-only";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { readStoredConfig } from "./platform-config";
import { presentConfig } from "./present-config";

/** GET /config: the whole platform configuration, for administrators. */
export async function readConfig(ctx: AuthedCtx) {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  return presentConfig(await readStoredConfig(ctx.db));
}
