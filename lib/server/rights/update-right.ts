import "server-only";
import { eq } from "drizzle-orm";
import { rights } from "@/db/schema";
import type { UpdateRightBody } from "@/lib/contracts/rights";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { RIGHT_NAMES } from "./rights";
import { describeFlags } from "./create-right";
import { presentRights } from "./present-rights";
import { assertHolds, flagsOf, getRightOrThrow, setOnSubfolders } from "./right-access";

/**
 * PUT /right/(rightId): changes some flags. Needs the share right on the folder; a flag may only
 * be turned on by someone who holds it. `recursive` gives the target the resulting right on every
 * subfolder too, where the caller must hold it as well.
 */
export async function updateRight(ctx: AuthedCtx, rightId: number, body: UpdateRightBody, options: { recursive: boolean }) {
  const user = ctx.actor.user;
  const updated = await ctx.db.transaction(async (tx) => {
    const { right, folder, rights: held } = await getRightOrThrow(tx, user, rightId);
    const next = flagsOf({ ...flagsOf(right), ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) });
    assertHolds(held, Object.fromEntries(RIGHT_NAMES.filter((n) => next[n] && !right[n]).map((n) => [n, true])));
    const [saved] = await tx.update(rights).set(next).where(eq(rights.id, right.id)).returning();
    const below = options.recursive ? await setOnSubfolders(tx, user, folder.id, right.targetId, next) : 0;
    await writeLog(tx, { actor: user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `Changed the right of ${right.targetId} on folder ${folder.name} to ${describeFlags(next)}${below ? ` (and ${below} subfolders)` : ""}`,
      objectType: "right",
      objectId: right.id,
      object: folder.name,
    });
    return saved;
  });
  const [json] = await presentRights(ctx.db, [updated]);
  return json;
}
