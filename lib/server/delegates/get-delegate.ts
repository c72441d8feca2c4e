import "server-only";
import type { DelegateResponse } from "@/lib/contracts/delegates";
import type { AuthedCtx } from "../context";
import { getDelegateOrThrow, serializeDelegate } from "./present-delegate";

/** GET /delegate/(id) (administrators; the route enforces it): a manager row seen as a delegate. */
export async function getDelegate(ctx: AuthedCtx, delegateId: number): Promise<DelegateResponse> {
  return serializeDelegate(await getDelegateOrThrow(ctx.db, delegateId));
}
