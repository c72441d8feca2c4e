import { alertResponse, createAlertBody } from "@/lib/contracts/alerts";
import { createAlert } from "@/lib/server/alerts/create-alert";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/alert: mail a user or group about changes in a folder (again: renews the existing alert)
export const POST = route({ body: createAlertBody, response: { 201: alertResponse } }, async ({ ctx, body }) => created(await createAlert(ctx, body)));

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
