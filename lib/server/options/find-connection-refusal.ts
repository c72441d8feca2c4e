import "server-only";
import type { DbOrTx } from "@/db";
import { getPlatformConfig } from "../config/platform-config";
import { connectionRefusal, type RefusalReason } from "./connection-rules";
import { findUserOptions } from "./effective-options";

/** Why the options that apply to a user refuse them a connection now, in the platform's time zone; null when allowed. */
export async function findConnectionRefusal(db: DbOrTx, userId: number, at: { ip: string; kind: string }): Promise<RefusalReason | null> {
  const [{ options }, { time_zone }] = await Promise.all([findUserOptions(db, userId), getPlatformConfig(db)]);
  return connectionRefusal(options, { ...at, now: new Date(), timeZone: time_zone });
}
