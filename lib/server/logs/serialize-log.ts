import "server-only";
import type { logs } from "@/db/schema";
import { GUEST_USER_ID, type LogEntryResponse } from "@/lib/contracts/logs";

type LogRow = typeof logs.$inferSelect;

/** The contract's Log entry. An unauthenticated actor appears as the guest account, id "0". */
export function serializeLog(row: LogRow): LogEntryResponse {
  return {
    id: row.id,
    user_id: row.userId === null ? GUEST_USER_ID : String(row.userId),
    user: row.userName,
    date: row.date.toISOString(),
    message: row.message,
    ip: row.ip,
    user_agent: row.userAgent,
    type: row.type,
    statut: row.statut === "ADMLLOG_ERROR" ? "ADMLLOG_ERROR" : "ADMLLOG_OK",
    object_id: row.objectId,
    object_type: row.objectType,
    object: row.object,
  };
}
