import { noContent } from "@/lib/contracts/common";
import { alertParams, alertResponse, recursiveQuery, updateAlertBody } from "@/lib/contracts/alerts";
import { deleteAlert } from "@/lib/server/alerts/delete-alert";
import { getAlert } from "@/lib/server/alerts/get-alert";
import { updateAlert } from "@/lib/server/alerts/update-alert";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// GET /api/alert/(alertId): read an alert
export const GET = route({ params: alertParams, response: alertResponse }, ({ ctx, params }) => getAlert(ctx, params.alertId));

// PUT /api/alert/(alertId): change the template, expiration or active (`recursive`: the target's alerts below too)
export const PUT = route({ params: alertParams, query: recursiveQuery, body: updateAlertBody, response: alertResponse }, ({ ctx, params, query, body }) =>
  updateAlert(ctx, params.alertId, body, { recursive: query.recursive }),
);

// DELETE /api/alert/(alertId): remove an alert (`recursive`: the target's alerts below too)
export const DELETE = route({ params: alertParams, query: recursiveQuery, response: noContent }, ({ ctx, params, query }) => deleteAlert(ctx, params.alertId, { recursive: query.recursive }));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
