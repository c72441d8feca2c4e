import { alertListResponse, alertsListParams, recursiveQuery } from "@/lib/contracts/alerts";
import { listAlerts } from "@/lib/server/alerts/list-alerts";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/alerts/(folderId): the alerts on a folder (`recursive`: and on its subfolders), Alert[]
export const GET = route({ params: alertsListParams, query: recursiveQuery, response: alertListResponse }, ({ ctx, params, query }) => listAlerts(ctx, params.folderId, { recursive: query.recursive }));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
