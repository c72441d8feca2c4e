import "server-only";
import { eq } from "drizzle-orm";
import { groupManagers } from "@/db/schema";
import type { DelegateResponse, UpdateDelegateInput } from "@/lib/contracts/delegates";
import { displayName, writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { getDelegateOrThrow, serializeDelegate } from "./present-delegate";

const COLUMNS = { users: "manageUsers", security: "manageSecurity", alerts: "manageAlerts" } as const;

/** PUT /delegate/(id) (administrators): changes the scopes given, keeps the others. */
export async function updateDelegate(ctx: AuthedCtx, delegateId: number, input: UpdateDelegateInput): Promise<DelegateResponse> {
  return ctx.db.transaction(async (tx) => {
    const current = await getDelegateOrThrow(tx, delegateId);
    const changed = (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter((scope) => input[scope] !== undefined && input[scope] !== current[COLUMNS[scope]]);
    if (changed.length === 0) return serializeDelegate(current);
    await tx.update(groupManagers).set(Object.fromEntries(changed.map((scope) => [COLUMNS[scope], input[scope]]))).where(eq(groupManagers.id, delegateId));
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `Changed the scopes of delegate ${displayName(current)}: ${changed.map((scope) => `${scope} ${input[scope] ? "on" : "off"}`).join(", ")}`,
      objectType: "group",
      objectId: current.groupId,
    });
    return serializeDelegate(await getDelegateOrThrow(tx, delegateId));
  });
}
