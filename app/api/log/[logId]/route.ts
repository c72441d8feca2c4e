import { logEntryResponse, logParams } from "@/lib/contracts/logs";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readLog } from "@/lib/server/logs/read-log";

export const runtime = "nodejs";

// GET /api/log/(logId): one audit-log entry
export const GET = route({ auth: "admin", params: logParams, response: logEntryResponse }, ({ ctx, params }) => readLog(ctx, params.logId));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
