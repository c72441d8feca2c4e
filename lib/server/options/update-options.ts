import "server-only";
import type { OptionsResponse, UpdateOptionsInput } from "@/lib/contracts/options";
import { connectionOptions } from "@/db/schema";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { assertAdministratorsCanConnect } from "./assert-administrators-can-connect";
import { parseIpEntry, type ConnectionOptions } from "./connection-rules";
import { getOptionsTargetOrThrow } from "./options-target";
import { readStoredConfig } from "../config/platform-config";
import { findTargetOptions, serializeOptions } from "./present-options";

/**
 * PUT /option/(targetId): writes the explicit row of a user or group. The given fields change what
 * GET shows: a user without a row of their own starts from what their groups give them, so
 * changing one field never silently lifts the others.
 */
export async function updateOptions(ctx: AuthedCtx, targetId: number, input: UpdateOptionsInput): Promise<OptionsResponse> {
  const ips = input.ips === undefined || input.ips === null ? input.ips : validIps(input.ips);
  return ctx.db.transaction(async (tx) => {
    const target = await getOptionsTargetOrThrow({ ...ctx, db: tx }, targetId, "write");
    const { options: current } = await findTargetOptions(tx, target);
    const next: ConnectionOptions = {
      ips: ips === undefined ? current.ips : ips,
      days: input.days ?? current.days,
      hourStart: input.hour_start === undefined ? current.hourStart : input.hour_start,
      hourEnd: input.hour_end === undefined ? current.hourEnd : input.hour_end,
      canNetsync: input.can_netsync ?? current.canNetsync,
      oauthBlocked: input.oauth_blocked ?? current.oauthBlocked,
    };
    if (next.hourStart !== null && next.hourStart === next.hourEnd) {
      throw new AppError("invalid_request", "hour_start and hour_end must differ", [{ path: "hour_end", message: "Must differ from hour_start" }]);
    }
    const row = { ...next, updatedBy: ctx.actor.user.id, updatedAt: new Date() };
    await tx.insert(connectionOptions).values({ targetId: target.id, ...row }).onConflictDoUpdate({ target: connectionOptions.targetId, set: row });
    await assertAdministratorsCanConnect(tx, ctx.request.ip);
    await writeLog(tx, { actor: ctx.actor.user, request: ctx.request }, {
      type: "ADMLLOG_UPDATE",
      message: `Changed the connection options of ${target.name}`,
      objectType: target.isGroup ? "group" : "user",
      objectId: target.id,
      object: target.name,
    });
    return serializeOptions(target, next, false, (await readStoredConfig(tx)).time_zone);
  });
}

/** Every entry an IPv4/IPv6 address or CIDR range, or a 400 naming each bad one. */
function validIps(entries: string[]): string[] {
  const details = entries.flatMap((entry, i) => (parseIpEntry(entry) ? [] : [{ path: `ips.${i}`, message: `Not an IP address or CIDR range: ${entry}` }]));
  if (details.length) throw new AppError("invalid_request", "Invalid entries in ips", details);
  return [...new Set(entries)];
}
