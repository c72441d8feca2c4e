import { listLogsQuery, logListResponse } from "@/lib/contracts/logs";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { listLogs } from "@/lib/server/logs/list-logs";

export const runtime = "nodejs";

// GET /api/logs: audit log, newest first (filters type, statut, user_id, object_type, object_id, date_start, date_end)
export const GET = route({ auth: "admin", query: listLogsQuery, response: logListResponse }, ({ ctx, query }) => listLogs(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
