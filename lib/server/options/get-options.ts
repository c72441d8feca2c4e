import "server-only";
import type { OptionsResponse } from "@/lib/contracts/options";
import type { AuthedCtx } from "../context";
import { getOptionsTargetOrThrow } from "./options-target";
import { presentOptions } from "./present-options";

/** GET /option/(targetId): the options that apply to a user or a group (see getOptionsTargetOrThrow for who may). */
export async function getOptions(ctx: AuthedCtx, targetId: number): Promise<OptionsResponse> {
  const target = await getOptionsTargetOrThrow(ctx, targetId, "read");
  return presentOptions(ctx.db, target);
}
