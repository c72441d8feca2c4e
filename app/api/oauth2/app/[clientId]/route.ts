import { noContent } from "@/lib/contracts/common";
import { appResponse, clientIdParams, updateAppBody } from "@/lib/contracts/oauth2";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { deleteApp } from "@/lib/server/oauth2/delete-app";
import { readApp } from "@/lib/server/oauth2/read-app";
import { updateApp } from "@/lib/server/oauth2/update-app";

export const runtime = "nodejs";

// GET /api/oauth2/app/(clientId): one application, without its secret (administrators)
export const GET = route({ auth: "admin", params: clientIdParams, response: appResponse }, ({ ctx, params }) => readApp(ctx, params.clientId));

// PUT /api/oauth2/app/(clientId): name, description, editor, type, kind, scope, callbacks (partial)
export const PUT = route({ auth: "admin", params: clientIdParams, body: updateAppBody, response: appResponse }, ({ ctx, params, body }) => updateApp(ctx, params.clientId, body));

// DELETE /api/oauth2/app/(clientId): the application and every token it holds
export const DELETE = route({ auth: "admin", params: clientIdParams, response: noContent }, ({ ctx, params }) => deleteApp(ctx, params.clientId));

export const { PATCH, POST } = otherMethods({ GET, PUT, DELETE });
