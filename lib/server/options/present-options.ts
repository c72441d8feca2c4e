import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { connectionOptions } from "@/db/schema";
import type { OptionsResponse } from "@/lib/contracts/options";
import { getPlatformConfig } from "../config/platform-config";
import { DEFAULT_OPTIONS, type ConnectionOptions } from "./connection-rules";
import { findUserOptions, pickOptions, type EffectiveOptions } from "./effective-options";
import type { OptionsTarget } from "./options-target";

/** What GET shows: a group's row (or the defaults), a user's own row or what their groups give them. */
export async function findTargetOptions(db: DbOrTx, target: OptionsTarget): Promise<EffectiveOptions> {
  if (!target.isGroup) return findUserOptions(db, target.id);
  const [row] = await db.select().from(connectionOptions).where(eq(connectionOptions.targetId, target.id)).limit(1);
  return { options: row ? pickOptions(row) : DEFAULT_OPTIONS, inherited: false };
}

/** `timeZone`: the platform's, in which `hour_start`, `hour_end` and the days are read. */
export function serializeOptions(target: OptionsTarget, options: ConnectionOptions, inherited: boolean, timeZone: string): OptionsResponse {
  return {
    target_id: String(target.id),
    target: target.name,
    target_isgroup: target.isGroup,
    ips: options.ips,
    days: options.days,
    hour_start: options.hourStart,
    hour_end: options.hourEnd,
    can_netsync: options.canNetsync,
    oauth_blocked: options.oauthBlocked,
    inherited,
    time_zone: timeZone,
  };
}

export async function presentOptions(db: DbOrTx, target: OptionsTarget): Promise<OptionsResponse> {
  const [{ options, inherited }, { time_zone }] = await Promise.all([findTargetOptions(db, target), getPlatformConfig(db)]);
  return serializeOptions(target, options, inherited, time_zone);
}
