import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { readStoredConfig } from "../config/platform-config";
import { AppError } from "../errors";
import { connectionRefusal } from "./connection-rules";
import { findActiveAdminOptions } from "./effective-options";

/**
 * Refuses a change of connection options after which no active administrator could connect now
 * from the address of the request making it: someone must always be able to undo a mistake. Run
 * it inside the transaction, after the change. The lock is the one the last-administrator rule of
 * accounts takes, so a concurrent demotion and restriction cannot together lock everyone out.
 * Hours are read in the platform's time zone, or in `timeZone` when a change of zone is checked.
 * Web blocking is not counted: an administrator kept off the web still connects through the API.
 */
export async function assertAdministratorsCanConnect(tx: Tx, ip: string, timeZone?: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('coffre.last-active-admin'))`);
  const now = new Date();
  const zone = timeZone ?? (await readStoredConfig(tx)).time_zone;
  const admins = await findActiveAdminOptions(tx);
  if (admins.some((a) => connectionRefusal(a.options, { ip, now, kind: "api", timeZone: zone }) === null)) return;
  throw new AppError("conflict", "No active administrator could connect from this address after this change; it was not applied", {
    reason: "administrators_locked_out",
  });
}
