import "server-only";
import type { AuthedCtx } from "../context";
import { mfaOwner, presentMfaState } from "./account-mfa";

/** GET /account/mfa (api.md): the caller's second factors. */
export async function readMfa(ctx: AuthedCtx) {
  return presentMfaState(ctx.db, mfaOwner(ctx));
}
